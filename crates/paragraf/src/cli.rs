//! Command-line flags. Every flag is also an environment variable
//! (`#[arg(long, env)]`); doc comments become the help text.

use clap::{Args, Parser, Subcommand};
use paragraf_types::limits;
use std::path::PathBuf;

/// `--top-k`: 1 to [`limits::MAX_TOP_K`], as the server accepts.
fn top_k_arg(s: &str) -> Result<usize, String> {
    let v: usize = s.parse().map_err(|e| format!("{e}"))?;
    limits::check_count("top_k", v, limits::MAX_TOP_K)
}

/// `--max-tokens`: 1 to [`limits::MAX_TOKENS`], as the server accepts.
fn max_tokens_arg(s: &str) -> Result<usize, String> {
    let v: usize = s.parse().map_err(|e| format!("{e}"))?;
    limits::check_count("max_tokens", v, limits::MAX_TOKENS)
}

/// A question: not blank (white space and control characters only), at
/// most [`limits::MAX_QUERY_CHARS`] characters, as the server accepts.
fn question_arg(s: &str) -> Result<String, String> {
    limits::check_query(s)
        .map(|()| s.to_string())
        .map_err(|e| e.to_string())
}

#[derive(Debug, Parser)]
#[command(
    name = "paragraf",
    version,
    about = "German and EU compliance law: primary norm, connected norms, controls and grounded answers with checked citations",
    after_help = "Exit status: 0 ok; 1 failure; 2 bad input (the question, a flag value, a --model that is no answer model, an index that is missing, has a file missing or fails its checksum); 3 `ask` abstained."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags shared by every subcommand (their own section of every `--help`).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Global options")]
pub struct Global {
    /// Data directory (index, fetched models, reports).
    #[arg(long, env = "PARAGRAF_HOME", global = true)]
    pub home: Option<PathBuf>,
    /// Model registry to use instead of the built-in models.toml.
    #[arg(long, env = "PARAGRAF_MODELS_TOML", global = true)]
    pub models_toml: Option<PathBuf>,
    /// Directory with model files (looked up before the Hugging Face cache).
    #[arg(long, env = "PARAGRAF_MODEL_DIR", global = true)]
    pub model_dir: Option<PathBuf>,
    /// Allow downloading models from the hub when they are not found locally.
    #[arg(long, env = "PARAGRAF_ALLOW_DOWNLOAD", global = true)]
    pub allow_download: bool,
    /// Device: auto, cpu, cuda, cuda:N or metal.
    #[arg(long, env = "PARAGRAF_DEVICE", default_value = "auto", global = true)]
    pub device: String,
    /// More log output.
    #[arg(long, short, global = true)]
    pub verbose: bool,
    /// Log as JSON lines.
    #[arg(long, env = "PARAGRAF_LOG_JSON", global = true)]
    pub log_json: bool,
    /// No progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fetch the small offline models, ingest the corpus, build the index and answer a sample question.
    Quickstart(QuickstartArgs),
    /// Ingest the legal corpus and inspect it.
    #[command(subcommand)]
    Corpus(CorpusCmd),
    /// Build and inspect indexes.
    #[command(subcommand)]
    Index(IndexCmd),
    /// Model registry.
    #[command(subcommand)]
    Models(ModelsCmd),
    /// Embed texts with an embedder (prints vectors as JSON).
    Embed(EmbedArgs),
    /// Ranked results and the assessment for a question.
    Search(SearchArgs),
    /// Search, then a grounded answer with checked citations (exit status 3
    /// when it abstains: no answer the sources carry; 2 for bad input, a
    /// `--model` that is no answer model included).
    Ask(AskArgs),
    /// HTTP API and web page.
    Serve(ServeArgs),
    /// Offline evaluation on a golden set, or LegalQuAD.
    Eval(EvalArgs),
    /// Benchmark model candidates and pipeline stages.
    Bench(BenchArgs),
    /// The GPU kit's check on random weights of the real architectures:
    /// CPU/device parity, encoder and GGUF throughput, an end-to-end core
    /// build (see scripts/gpu-kit.sh, which runs each part in a time box).
    GpuCheck(GpuCheckArgs),
}

#[derive(Debug, Args)]
pub struct QuickstartArgs {
    /// Corpus directory (default ../shared/corpus).
    #[arg(long, env = "PARAGRAF_CORPUS")]
    pub corpus: Option<PathBuf>,
    /// Index the whole corpus instead of the core set (slow on CPU).
    #[arg(long)]
    pub full: bool,
    /// Answer model for the sample question.
    #[arg(long, default_value = "qwen2.5-coder-0.5b-instruct-q4km")]
    pub model: String,
    /// Sample question.
    #[arg(
        long,
        default_value = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?"
    )]
    pub question: String,
}

#[derive(Debug, Subcommand)]
pub enum CorpusCmd {
    /// Parse every source file into chunks and write them.
    Ingest {
        /// Corpus directory.
        #[arg(long = "from", env = "PARAGRAF_CORPUS")]
        from: Option<PathBuf>,
        /// Output directory for the ingested corpus.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Token budget per chunk.
        #[arg(long)]
        max_tokens: Option<usize>,
        /// Ingest the scale archive (all federal laws) and report throughput instead.
        #[arg(long)]
        bench: bool,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Counts per regulation / class / role / status / language, reference resolution, skipped files.
    Stats {
        /// Corpus directory (default ../shared/corpus).
        #[arg(long = "from", env = "PARAGRAF_CORPUS")]
        from: Option<PathBuf>,
        /// Print the counts as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a norm with its metadata and connected norms, e.g. "Art. 37 DSGVO".
    Show {
        /// The norm: a citation ("Art. 37 DSGVO", "§ 38 BDSG") or a chunk id.
        norm: String,
        /// Corpus directory (default ../shared/corpus).
        #[arg(long = "from", env = "PARAGRAF_CORPUS")]
        from: Option<PathBuf>,
        /// Print the norm as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum IndexCmd {
    /// Ingest, embed, build HNSW + inverted index and write the index directory.
    Build {
        /// Corpus directory (default ../shared/corpus).
        #[arg(long, env = "PARAGRAF_CORPUS")]
        corpus: Option<PathBuf>,
        /// Embedder name from models.toml.
        #[arg(long, default_value = "multilingual-e5-small")]
        embedder: String,
        /// Output directory (default <home>/index).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Only these regulations (comma separated canonical names).
        #[arg(long, value_delimiter = ',')]
        only: Option<Vec<String>>,
        /// Only the core set of regulations (fast on CPU).
        #[arg(long)]
        core: bool,
        /// Passages per embedding batch.
        #[arg(long, default_value_t = paragraf_engine::build::DEFAULT_BATCH_SIZE)]
        batch_size: usize,
        /// Store vectors as f16.
        #[arg(long)]
        f16: bool,
        /// Fail (exit 2, before embedding) when a corpus file cannot be
        /// indexed; without it such files are listed and left out.
        #[arg(long)]
        strict: bool,
        /// Also embed every norm heading on its own (the heading-vector
        /// fusion channel, rank parameter `headingWeight`; off by default:
        /// no gain measured with multilingual-e5-small).
        #[arg(long)]
        heading_vectors: bool,
        /// Add all federal law: every law of the archive
        /// (<corpus>/scale/gii-all-federal-law.tar.zst, or --scale-archive)
        /// the curated corpus does not hold, as the lexical tier (BM25,
        /// headings, references; no vectors unless --embed-scale).
        #[arg(long)]
        scale: bool,
        /// The archive for --scale.
        #[arg(long, requires = "scale")]
        scale_archive: Option<PathBuf>,
        /// With --scale: embed the archive's chunks too (resumable; minutes
        /// on a GPU, most of a day on 2 CPU cores).
        #[arg(long, requires = "scale")]
        embed_scale: bool,
        /// Print the build report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Derive the German ↔ English term table from the index's parallel
    /// texts (same norm in both languages) and write it as TSV (the source of
    /// crates/paragraf-rank/lexicon/terms_de_en.tsv).
    Terms {
        /// Index directory (default <home>/index).
        dir: Option<PathBuf>,
        /// Where to write the TSV (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Show an index's manifest.
    Info {
        /// Index directory (default <home>/index).
        dir: Option<PathBuf>,
        /// Check every file's size and sha256 against the manifest; exit 2
        /// naming the first file that does not match.
        #[arg(long)]
        verify: bool,
        /// Print the manifest as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ModelsCmd {
    /// Every registry entry, where it resolves, size, and whether it is present.
    List {
        /// Print the list as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct EmbedArgs {
    /// Embedder name from models.toml.
    #[arg(long, default_value = "multilingual-e5-small")]
    pub model: String,
    /// Embed as queries (default: passages).
    #[arg(long)]
    pub query: bool,
    /// Texts to embed.
    #[arg(required = true)]
    pub texts: Vec<String>,
}

#[derive(Debug, Args, Clone)]
pub struct SearchFlags {
    /// Index directory (default <home>/index).
    #[arg(long, env = "PARAGRAF_INDEX")]
    pub index: Option<PathBuf>,
    /// Results to return (1–50).
    #[arg(long, default_value_t = limits::DEFAULT_TOP_K, value_parser = top_k_arg)]
    pub top_k: usize,
    /// Rank parameters to override (TOML or JSON).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Pipeline stage: dense, lexical, fused, rerank, full.
    #[arg(long, default_value = "full")]
    pub stage: String,
    /// Filter by regulation (comma separated).
    #[arg(long, value_delimiter = ',')]
    pub regulation: Vec<String>,
    /// Filter by language (de, en).
    #[arg(long, value_delimiter = ',')]
    pub lang: Vec<String>,
    /// Leave the lexicon's hand topics out (headings, defined terms and
    /// retrieval only; eval's `full-no-topics` stage).
    #[arg(long)]
    pub no_hand_topics: bool,
}

impl SearchFlags {
    /// Defaults for commands that open an engine without search flags of
    /// their own (serve, bench, quickstart): top 10, full pipeline, no filter,
    /// parameters from models.toml.
    pub fn for_index(index: Option<PathBuf>) -> SearchFlags {
        SearchFlags {
            index,
            top_k: limits::DEFAULT_TOP_K,
            params: None,
            stage: "full".into(),
            regulation: vec![],
            lang: vec![],
            no_hand_topics: false,
        }
    }
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The question, German or English (at most 2000 characters).
    #[arg(value_parser = question_arg)]
    pub question: String,
    #[command(flatten)]
    pub flags: SearchFlags,
    /// Print the response as JSON (the HTTP API's shape).
    #[arg(long)]
    pub json: bool,
    /// Print the question analysis (signals, searched terms) and each
    /// result's score breakdown (with --json: an `analysis` field).
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// The question, German or English (at most 2000 characters).
    #[arg(value_parser = question_arg)]
    pub question: String,
    #[command(flatten)]
    pub flags: SearchFlags,
    /// Answer model (default qwen2.5-1.5b-instruct-q4km when present, else the test model).
    #[arg(long, env = "PARAGRAF_MODEL")]
    pub model: Option<String>,
    /// Print the response as JSON (the HTTP API's shape).
    #[arg(long)]
    pub json: bool,
    /// Only search; no generation.
    #[arg(long)]
    pub no_generate: bool,
    /// Most tokens the answer model may write (1–1024).
    #[arg(long, default_value_t = limits::DEFAULT_MAX_TOKENS, value_parser = max_tokens_arg)]
    pub max_tokens: usize,
    /// Sampling temperature; 0 = greedy (deterministic).
    #[arg(long, default_value_t = 0.0)]
    pub temperature: f64,
    /// Seed of the sampler when the temperature is above 0.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Index directory (default <home>/index).
    #[arg(long, env = "PARAGRAF_INDEX")]
    pub index: Option<PathBuf>,
    /// Address to listen on (loopback by default).
    #[arg(long, env = "PARAGRAF_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Answer model loaded at start.
    #[arg(long, env = "PARAGRAF_MODEL")]
    pub model: Option<String>,
    /// Bearer token required on /v1/*.
    #[arg(long, env = "PARAGRAF_API_KEY")]
    pub api_key: Option<String>,
    /// Allow cross-origin requests.
    #[arg(long)]
    pub cors: bool,
    /// Answer requests that may wait for the model.
    #[arg(long, default_value_t = 8)]
    pub queue: usize,
    /// Further answer models clients may name in `model` (comma-separated
    /// registry names); any other name is refused with 422. The model of
    /// `--model` is always offered.
    #[arg(long, env = "PARAGRAF_MODELS", value_delimiter = ',')]
    pub models: Vec<String>,
    /// Host names accepted in the Host header besides localhost and IP
    /// addresses (comma-separated; `*` accepts any). Guards against DNS
    /// rebinding.
    #[arg(long, env = "PARAGRAF_ALLOW_HOST", value_delimiter = ',')]
    pub allow_host: Vec<String>,
    /// Seconds a client has to send its request headers (also the idle
    /// keep-alive timeout).
    #[arg(long, default_value_t = 10)]
    pub header_timeout: u64,
    /// Seconds a client has to send a request body.
    #[arg(long, default_value_t = 15)]
    pub body_timeout: u64,
    /// Connections served at once; more wait in the listen backlog.
    #[arg(long, default_value_t = 256)]
    pub max_connections: usize,
    /// Most concurrent questions embedded in one encoder pass (1: each
    /// question its own pass). Default: 16 on a GPU, 1 on a CPU (where a
    /// batch costs as much as its questions one by one).
    #[arg(long)]
    pub embed_batch: Option<usize>,
    /// Questions whose embeddings are cached (0: no cache).
    #[arg(long, default_value_t = paragraf_engine::query_embed::QUERY_CACHE_ENTRIES)]
    pub query_cache: usize,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// `legalquad` runs the LegalQuAD benchmark instead of a golden set.
    pub suite: Option<String>,
    /// Golden set (JSON lines with `query` and the expected norms).
    #[arg(long)]
    pub golden: Option<PathBuf>,
    #[command(flatten)]
    pub flags: SearchFlags,
    /// Also generate answers and score citations/abstention.
    #[arg(long)]
    pub generate: bool,
    /// Score the model-free extractive answers (`ask --no-generate`):
    /// answer-fact recall, supported sentences, pinpoint accuracy.
    #[arg(long, conflicts_with = "generate")]
    pub extractive: bool,
    /// Answer facts for the golden set (default: `<golden>.answers.jsonl`
    /// beside it, when present).
    #[arg(long)]
    pub answers: Option<PathBuf>,
    /// Answer model for `--generate` (default: the registry's default when present).
    #[arg(long, env = "PARAGRAF_MODEL")]
    pub model: Option<String>,
    /// Directory for the JSON + Markdown + SVG report.
    #[arg(long)]
    pub report_dir: Option<PathBuf>,
    /// Compare two earlier runs (JSON reports): which questions flipped.
    #[arg(long, num_args = 2, value_names = ["RUN_A", "RUN_B"])]
    pub compare: Option<Vec<PathBuf>>,
    /// Run only shard I of N of the golden set (questions at positions
    /// I-1 modulo N), e.g. one per GPU; the report is
    /// `eval.shard-I-of-N.json`. Combine the shards with `--merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Merge the JSON reports of every shard of one run into the report of
    /// the whole run (the figures an unsharded run gives).
    #[arg(long, num_args = 1.., value_name = "SHARD_REPORT", conflicts_with_all = ["shard", "compare"])]
    pub merge: Vec<PathBuf>,
    /// Embedder for LegalQuAD.
    #[arg(long, default_value = "multilingual-e5-small")]
    pub embedder: String,
    /// Only the first N LegalQuAD questions/contexts (0 = all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct GpuCheckArgs {
    /// Directory for the parts' JSON and the report (gpu-check.json, .md).
    #[arg(long)]
    pub out: PathBuf,
    /// Scratch folder for the GGUFs, the random model and the index (kept
    /// apart from --out, which the GPU kit returns; default: a folder under
    /// the system's temporary directory).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Part to run: plan, parity, prepare, encoder, decoder, e2e, report, or
    /// all (in that order, in this process, without time boxes).
    #[arg(long, default_value = "all")]
    pub part: String,
    /// Small shapes instead of the real ones (a CPU run in seconds).
    #[arg(long)]
    pub tiny: bool,
    /// Corpus for the end-to-end part (the kit's core subset).
    #[arg(long, env = "PARAGRAF_CORPUS")]
    pub corpus: Option<PathBuf>,
    /// XLM-R tokenizer.json for the end-to-end part (bge-m3's tokenizer).
    #[arg(long)]
    pub tokenizer: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to bench: models (default), search; encode / decode run our side
    /// of a same-run comparison on `--inputs` (scripts/bench_peers.py).
    pub what: Option<String>,
    /// Only these models (comma separated).
    #[arg(long, value_delimiter = ',')]
    pub models: Vec<String>,
    /// Repetitions per figure (medians reported).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Directory for the JSON + Markdown report (default <home>/reports).
    #[arg(long)]
    pub report_dir: Option<PathBuf>,
    /// Index for the answer models' real prompt and for `bench search`
    /// (default <home>/index).
    #[arg(long, env = "PARAGRAF_INDEX")]
    pub index: Option<PathBuf>,
    /// Compare two earlier bench reports (JSON): per model and metric the
    /// difference of the medians and whether it is within noise.
    #[arg(long, num_args = 2, value_names = ["RUN_A", "RUN_B"])]
    pub compare: Option<Vec<PathBuf>>,
    /// Relative tolerance for `--compare` (besides the larger IQR).
    #[arg(long, default_value_t = 0.05)]
    pub tolerance: f64,
    /// `bench search`: also answer the first N questions with the answer
    /// model (`--models NAME`, default the configured one) and time the first
    /// gated sentence and the whole answer.
    #[arg(long, default_value_t = 0)]
    pub answers: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// `bench encode|decode`: the inputs file (JSON) both runtimes read.
    #[arg(long)]
    pub inputs: Option<PathBuf>,
}

#[cfg(test)]
mod help_tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every flag and argument of every subcommand, with its command path.
    fn all_args(cmd: &clap::Command, path: &str, out: &mut Vec<(String, clap::Arg)>) {
        for a in cmd.get_arguments() {
            out.push((path.to_string(), a.clone()));
        }
        for sub in cmd.get_subcommands() {
            all_args(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn every_flag_has_help_text() {
        let cmd = Cli::command();
        let mut args = Vec::new();
        all_args(&cmd, "paragraf", &mut args);
        let missing: Vec<String> = args
            .iter()
            .filter(|(_, a)| !matches!(a.get_id().as_str(), "help" | "version"))
            .filter(|(_, a)| a.get_help().is_none_or(|h| h.to_string().trim().is_empty()))
            .map(|(p, a)| format!("{p}: {}", a.get_id()))
            .collect();
        assert!(missing.is_empty(), "flags without help text: {missing:#?}");
    }

    #[test]
    fn global_flags_have_their_own_section() {
        let cmd = Cli::command();
        for a in cmd.get_arguments().filter(|a| a.is_global_set()) {
            assert_eq!(
                a.get_help_heading(),
                Some("Global options"),
                "{}",
                a.get_id()
            );
        }
        let mut help = Vec::new();
        let mut search = Cli::command();
        search.build();
        search
            .find_subcommand_mut("search")
            .expect("search")
            .write_long_help(&mut help)
            .unwrap();
        let help = String::from_utf8(help).unwrap();
        let global = help.find("Global options:").expect("section");
        assert!(help.find("--top-k").unwrap() < global, "{help}");
        assert!(help.find("--model-dir").unwrap() > global, "{help}");
    }
}
