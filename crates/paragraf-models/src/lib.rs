//! Models in-process through candle: embedders (bge-m3, BERT family), GGUF answer models, models.toml
