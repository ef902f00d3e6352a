//! Progress bars on a terminal (hidden when stderr is not one).

use indicatif::{ProgressBar, ProgressStyle};
use paragraf_engine::BuildEvent;
use std::sync::Mutex;

/// One bar per build stage, driven by [`BuildEvent`]s.
pub struct StageBars {
    current: Mutex<Option<ProgressBar>>,
    quiet: bool,
}

impl StageBars {
    pub fn new(quiet: bool) -> Self {
        StageBars {
            current: Mutex::new(None),
            quiet,
        }
    }

    pub fn on_event(&self, e: BuildEvent) {
        let mut cur = self.current.lock().unwrap_or_else(|p| p.into_inner());
        match e {
            BuildEvent::Stage { name, total } => {
                let pb = if self.quiet {
                    ProgressBar::hidden()
                } else if total > 0 {
                    ProgressBar::new(total)
                } else {
                    ProgressBar::new_spinner()
                };
                pb.set_style(
                    ProgressStyle::with_template("{prefix:>9} [{elapsed_precise}] {bar:40} {pos}/{len} ({per_sec}, eta {eta})")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                pb.set_prefix(name);
                *cur = Some(pb);
            }
            BuildEvent::Progress { done, .. } => {
                if let Some(pb) = cur.as_ref() {
                    pb.set_position(done);
                }
            }
            BuildEvent::StageDone { name, ms } => {
                if let Some(pb) = cur.take() {
                    pb.finish_and_clear();
                }
                if !self.quiet {
                    eprintln!("{name:>9}: {:.1} s", ms / 1e3);
                }
            }
        }
    }
}
