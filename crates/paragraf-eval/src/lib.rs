//! Offline evaluation metrics, golden-set runner and reports
