//! `paragraf serve`: the engine behind the HTTP API and web page
//! (`paragraf_server`), through [`EngineBackend`].

use super::{default_answer_model, open_engine_with};
use crate::cli::{Global, SearchFlags, ServeArgs};
use anyhow::Result;
use paragraf_engine::{
    AnswerProgress, AskOptions, Engine, EngineError, GenParams, ModelError, SearchOptions,
};
use paragraf_server::{
    AnswerEvent, AnswerRequest, Backend, BackendError, NormView, SearchRequest, ServerConfig,
};
use paragraf_types::{SearchResponse, Status};
use std::sync::Arc;

/// The real engine as the server's backend.
pub struct EngineBackend {
    engine: Engine,
    model: Option<String>,
    /// What answers depend on besides the request (the answer cache's key):
    /// the index build and the default answer model.
    identity: String,
}

impl EngineBackend {
    pub fn new(engine: Engine, model: Option<String>) -> Self {
        let m = &engine.index().manifest;
        let identity = format!(
            "index {} {} built {} embedder {} format {}; answer model {}",
            m.corpus_hash,
            m.counts.chunks,
            m.built_at,
            m.embedder.name,
            m.format_version,
            model.as_deref().unwrap_or("-")
        );
        EngineBackend {
            engine,
            model,
            identity,
        }
    }

    fn options(
        &self,
        top_k: Option<usize>,
        filters: Option<&paragraf_server::SearchFilters>,
    ) -> SearchOptions {
        let mut o = SearchOptions::default();
        if let Some(k) = top_k {
            o.top_k = k;
        }
        if let Some(f) = filters {
            o.filter.regulations = f.regulations.clone();
            o.filter.jurisdictions = f.jurisdictions.clone();
            o.filter.classes = f.source_classes.clone();
            if let Some(l) = f.lang {
                o.filter.langs = vec![l];
            }
            if f.include_superseded == Some(false) {
                o.filter.statuses = vec![Status::InForce];
            }
        }
        o
    }
}

fn map_err(e: EngineError) -> BackendError {
    match e {
        EngineError::EmptyQuery | EngineError::QueryTooLong { .. } => {
            BackendError::InvalidRequest {
                field: "query".into(),
                message: e.to_string(),
            }
        }
        EngineError::BadTopK { .. } => BackendError::InvalidRequest {
            field: "top_k".into(),
            message: e.to_string(),
        },
        EngineError::NoAnswerModel => BackendError::InvalidRequest {
            field: "model".into(),
            message: e.to_string(),
        },
        EngineError::Model(ModelError::UnknownModel { .. }) => BackendError::InvalidRequest {
            field: "model".into(),
            message: e.to_string(),
        },
        other => BackendError::Internal(other.to_string()),
    }
}

impl Backend for EngineBackend {
    fn search(&self, req: &SearchRequest) -> Result<SearchResponse, BackendError> {
        let opts = self.options(req.top_k, req.filters.as_ref());
        let mut out = self.engine.search(&req.query, &opts).map_err(map_err)?;
        if !req.explain {
            for r in &mut out.response.results {
                r.explanation.clear();
            }
        }
        Ok(out.response)
    }

    fn answer(
        &self,
        req: &AnswerRequest,
        on_event: &mut dyn FnMut(AnswerEvent) -> bool,
    ) -> Result<SearchResponse, BackendError> {
        let mut ask = AskOptions {
            search: self.options(req.top_k, req.filters.as_ref()),
            model: req.model.clone().or_else(|| self.model.clone()),
            ..AskOptions::default()
        };
        if let Some(m) = req.max_tokens {
            ask.gen = GenParams {
                max_tokens: m,
                ..ask.gen
            };
        }
        // results first, then the gated sentences: no raw token leaves
        let outcome = self
            .engine
            .search(&req.query, &ask.search)
            .map_err(map_err)?;
        if !on_event(AnswerEvent::Results(outcome.response.clone())) {
            return Ok(outcome.response);
        }
        // each sentence as soon as the gate has passed it
        let out = self
            .engine
            .answer(outcome, &ask, &mut |p| match p {
                AnswerProgress::Tokens(n) => on_event(AnswerEvent::Progress(n)),
                AnswerProgress::Sentence(s) => on_event(AnswerEvent::Sentence(s)),
            })
            .map_err(map_err)?;
        Ok(out.response)
    }

    fn norm(&self, id: &str) -> Result<Option<NormView>, BackendError> {
        let chunks = self.engine.find_norm(id);
        let Some(first) = chunks
            .iter()
            .find(|c| c.lang == paragraf_types::Lang::De)
            .or(chunks.first())
            .copied()
        else {
            return Ok(None);
        };
        let mut view = NormView::from_chunks(first, &chunks);
        view.url = self.engine.norm_url(&first.regulation, &first.norm);
        Ok(Some(view))
    }

    fn ready(&self) -> bool {
        true
    }

    fn info(&self) -> serde_json::Value {
        let m = &self.engine.index().manifest;
        let regulations: std::collections::BTreeSet<&str> = self
            .engine
            .chunks()
            .iter()
            .map(|c| c.regulation.as_str())
            .collect();
        serde_json::json!({
            "regulations": regulations,
            "index": { "chunks": m.counts.chunks, "embedder": m.embedder.name, "built_at": m.built_at, "format_version": m.format_version },
            "embedder": self.engine.embedder_name(),
            "answer_model": self.model,
            "queue_depth": self.engine.queue_depth(),
            "query_embedding": self.engine.query_embed_stats(),
        })
    }

    fn model_loads(&self) -> Option<paragraf_server::ModelLoads> {
        let s = self.engine.model_load_stats();
        Some(paragraf_server::ModelLoads {
            loads: s.loads,
            switches: s.switches,
            load_seconds: s.load_seconds,
            loaded: s.loaded,
            capacity: s.capacity,
        })
    }

    fn cache_identity(&self) -> Option<String> {
        Some(self.identity.clone())
    }
}

pub fn run(g: &Global, a: ServeArgs) -> Result<()> {
    // flags first: a typo fails at once, before index and models load
    let addr = a
        .addr
        .parse()
        .map_err(|_| crate::BadFlag(format!("--addr: `{}` is not host:port", a.addr)))?;
    let model = match a.model.clone() {
        Some(m) => Some(m),
        None => default_answer_model(g).ok(),
    };
    // the models a client may name: the loaded one and those offered; each
    // must be a registry name
    let registry = super::registry(g)?;
    let known: Vec<&str> = registry.answer_models().map(|e| e.name.as_str()).collect();
    for m in &a.models {
        if !known.contains(&m.as_str()) {
            return Err(crate::BadFlag(format!(
                "--models: `{m}` is not an answer model of the registry (known: {})",
                known.join(", ")
            ))
            .into());
        }
    }
    let mut cfg = ServerConfig {
        addr,
        api_key: a.api_key.clone(),
        cors: a.cors,
        ..ServerConfig::default()
    };
    for m in model.iter().chain(&a.models) {
        if !cfg.answer_models.contains(m) {
            cfg.answer_models.push(m.clone());
        }
    }
    cfg.limits.answer_queue_capacity = a.queue;
    cfg.limits.header_read_timeout = std::time::Duration::from_secs(a.header_timeout.max(1));
    cfg.limits.body_read_timeout = std::time::Duration::from_secs(a.body_timeout.max(1));
    cfg.limits.max_connections = a.max_connections.max(1);
    cfg.allowed_hosts = a.allow_host.clone();
    let flags = SearchFlags::for_index(a.index.clone());
    let engine = open_engine_with(
        g,
        &flags,
        model.clone(),
        true,
        a.embed_batch.map(|b| b.max(1)),
        a.query_cache,
    )?;
    // every model a client may name stays loaded once used (at least the
    // default two): alternating clients do not reload one per switch
    engine.set_answer_models_kept(
        cfg.answer_models
            .len()
            .max(paragraf_engine::answer_models::ANSWER_MODELS_KEPT),
    );
    let backend: Arc<dyn Backend> = Arc::new(EngineBackend::new(engine, model));
    eprintln!("paragraf serve: http://{}/", cfg.addr);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(paragraf_server::serve(backend, cfg))?;
    Ok(())
}
