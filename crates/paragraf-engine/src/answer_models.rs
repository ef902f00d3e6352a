//! The loaded answer models: a small least-recently-used set, so clients
//! that alternate between two allowed models (`paragraf serve --models
//! a,b`) do not force a model load on every switch (each one re-read the
//! weights before), with counters of loads, switches and load time for
//! `/metrics`.

use std::time::{Duration, Instant};

/// Answer models kept loaded by default: the default model and one other.
pub const ANSWER_MODELS_KEPT: usize = 2;

/// What loading answer models has cost so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ModelLoadStats {
    /// Models loaded from disk (a switch to a model still loaded is none).
    pub loads: u64,
    /// Answers whose model differs from the previous answer's.
    pub switches: u64,
    /// Wall time spent loading, in seconds.
    pub load_seconds: f64,
    /// Models loaded now.
    pub loaded: usize,
    /// Most models kept loaded.
    pub capacity: usize,
}

/// Named values, most recently used first, at most `capacity` of them.
pub struct ModelSet<G> {
    capacity: usize,
    entries: Vec<(String, G)>,
    last_used: Option<String>,
    loads: u64,
    switches: u64,
    load_time: Duration,
}

impl<G> ModelSet<G> {
    /// An empty set keeping at most `capacity` (at least 1) models.
    pub fn new(capacity: usize) -> ModelSet<G> {
        ModelSet {
            capacity: capacity.max(1),
            entries: Vec::new(),
            last_used: None,
            loads: 0,
            switches: 0,
            load_time: Duration::ZERO,
        }
    }

    /// Keep at most `capacity` (at least 1) models; the least recently used
    /// beyond it are dropped now.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
        self.entries.truncate(self.capacity);
    }

    /// Put a model in as the most recently used (replacing one of the same
    /// name), without counting a load: a model the caller made itself.
    pub fn insert(&mut self, name: &str, value: G) {
        self.entries.retain(|(n, _)| n != name);
        self.entries.insert(0, (name.to_string(), value));
        self.entries.truncate(self.capacity);
    }

    /// The model `name` for the next answer: the loaded one, or `load()`'s
    /// (counted and timed), which evicts the least recently used beyond the
    /// capacity. A load error leaves the set as it was.
    pub fn get_or_load<E>(
        &mut self,
        name: &str,
        load: impl FnOnce() -> Result<G, E>,
    ) -> Result<&mut G, E> {
        if self.last_used.as_deref().is_some_and(|l| l != name) {
            self.switches += 1;
        }
        self.last_used = Some(name.to_string());
        match self.entries.iter().position(|(n, _)| n == name) {
            Some(0) => {}
            Some(i) => {
                let e = self.entries.remove(i);
                self.entries.insert(0, e);
            }
            None => {
                let t = Instant::now();
                let g = load()?;
                self.load_time += t.elapsed();
                self.loads += 1;
                self.insert(name, g);
            }
        }
        Ok(&mut self.entries[0].1)
    }

    /// The most recently used model, if it is `name`.
    pub fn current_mut(&mut self, name: &str) -> Option<&mut G> {
        self.entries
            .first_mut()
            .filter(|(n, _)| n == name)
            .map(|(_, g)| g)
    }

    /// Names loaded now, most recently used first.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The counters.
    pub fn stats(&self) -> ModelLoadStats {
        ModelLoadStats {
            loads: self.loads,
            switches: self.switches,
            load_seconds: self.load_time.as_secs_f64(),
            loaded: self.entries.len(),
            capacity: self.capacity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(set: &mut ModelSet<String>, name: &str, loaded: &mut Vec<String>) {
        let got = set
            .get_or_load(name, || -> Result<String, ()> {
                loaded.push(name.to_string());
                Ok(format!("model {name}"))
            })
            .unwrap();
        assert_eq!(got, &format!("model {name}"));
    }

    #[test]
    fn alternating_between_two_models_loads_each_once() {
        let mut set = ModelSet::new(ANSWER_MODELS_KEPT);
        let mut loaded = Vec::new();
        for name in ["a", "b", "a", "b", "a", "b"] {
            ask(&mut set, name, &mut loaded);
        }
        assert_eq!(loaded, vec!["a", "b"], "one load each, not one per switch");
        let s = set.stats();
        assert_eq!((s.loads, s.switches, s.loaded), (2, 5, 2));
    }

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut set = ModelSet::new(2);
        let mut loaded = Vec::new();
        for name in ["a", "b", "a", "c", "a", "b"] {
            ask(&mut set, name, &mut loaded);
        }
        // c evicted b (a was used more recently); b came back evicting c
        assert_eq!(loaded, vec!["a", "b", "c", "b"]);
        assert_eq!(set.names(), vec!["b", "a"]);
        set.set_capacity(1);
        assert_eq!(set.names(), vec!["b"]);
        // a failed load changes nothing but the switch count
        let r = set.get_or_load("x", || Err::<String, &str>("no such model"));
        assert_eq!(r.unwrap_err(), "no such model");
        assert_eq!(set.names(), vec!["b"]);
        assert_eq!(set.stats().loads, 4);
    }
}
