//! The words of a yes/no question whether something is a term of art
//! (`[definition_intent.classify]` of the lexicon), compiled; read by
//! [`crate::query`] (its `classify` pass), kept apart from it so that the
//! lexicon does not import the query passes.

use serde::Deserialize;

/// `[definition_intent.classify]` of the lexicon, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawClassifyFrame {
    #[serde(default)]
    copulas: Vec<String>,
    #[serde(default)]
    articles: Vec<String>,
    #[serde(default)]
    tail: Vec<String>,
}

/// The words of a classification question (`[definition_intent.classify]`):
/// the copulas that open it, the indefinite articles that open its
/// predicate, and the words that may close it after the predicate (a law's
/// name is taken out first: "… personal data under the GDPR?").
#[derive(Debug, Clone, Default)]
pub struct ClassifyFrame {
    pub copulas: Vec<String>,
    pub articles: Vec<String>,
    pub tail: Vec<String>,
}

impl ClassifyFrame {
    pub(crate) fn compile(raw: &RawClassifyFrame) -> ClassifyFrame {
        use crate::text::list_tokens;
        ClassifyFrame {
            copulas: list_tokens(&raw.copulas),
            articles: list_tokens(&raw.articles),
            tail: list_tokens(&raw.tail),
        }
    }
}
