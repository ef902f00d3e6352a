//! Chat templates of the supported families, implemented directly (no Jinja
//! engine): chatml (Qwen2.5, SmolLM2), llama3, gemma, phi3. The template is
//! chosen from the GGUF's `tokenizer.chat_template` text (or forced by
//! `models.toml`). Prompts are rendered as pieces so that special tokens are
//! inserted by id and message text can never inject one.

use serde::Serialize;

/// Role of a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// System instructions.
    System,
    /// The user.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// Lower-case name used by the templates.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: String,
}

/// A supported chat template family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatTemplate {
    /// `<|im_start|>role\n...<|im_end|>\n` (Qwen2.5, SmolLM2).
    ChatMl,
    /// `<|start_header_id|>role<|end_header_id|>\n\n...<|eot_id|>` (Llama 3.x).
    Llama3,
    /// `<start_of_turn>user\n...<end_of_turn>\n` (Gemma; system folded into the first user turn).
    Gemma,
    /// `<|user|>\n...<|end|>\n` (Phi-3.x).
    Phi3,
}

impl ChatTemplate {
    /// Name as in `models.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatTemplate::ChatMl => "chatml",
            ChatTemplate::Llama3 => "llama3",
            ChatTemplate::Gemma => "gemma",
            ChatTemplate::Phi3 => "phi3",
        }
    }

    /// Parses a `models.toml` name.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "chatml" => Some(ChatTemplate::ChatMl),
            "llama3" => Some(ChatTemplate::Llama3),
            "gemma" => Some(ChatTemplate::Gemma),
            "phi3" => Some(ChatTemplate::Phi3),
            _ => None,
        }
    }

    /// Recognises the family of a Jinja chat template by its markers.
    pub fn detect(jinja: &str) -> Option<Self> {
        if jinja.contains("<|im_start|>") {
            Some(ChatTemplate::ChatMl)
        } else if jinja.contains("<|start_header_id|>") {
            Some(ChatTemplate::Llama3)
        } else if jinja.contains("<start_of_turn>") {
            Some(ChatTemplate::Gemma)
        } else if jinja.contains("<|user|>") && jinja.contains("<|end|>") {
            Some(ChatTemplate::Phi3)
        } else {
            None
        }
    }

    /// Special tokens that end an assistant turn.
    pub fn end_of_turn_tokens(self) -> &'static [&'static str] {
        match self {
            ChatTemplate::ChatMl => &["<|im_end|>", "<|endoftext|>"],
            ChatTemplate::Llama3 => &["<|eot_id|>", "<|end_of_text|>", "<|eom_id|>"],
            ChatTemplate::Gemma => &["<end_of_turn>", "<eos>"],
            ChatTemplate::Phi3 => &["<|end|>", "<|endoftext|>"],
        }
    }

    /// Special tokens the template itself uses (must exist in the vocabulary).
    pub fn required_tokens(self) -> &'static [&'static str] {
        match self {
            ChatTemplate::ChatMl => &["<|im_start|>", "<|im_end|>"],
            ChatTemplate::Llama3 => &[
                "<|begin_of_text|>",
                "<|start_header_id|>",
                "<|end_header_id|>",
                "<|eot_id|>",
            ],
            ChatTemplate::Gemma => &["<bos>", "<start_of_turn>", "<end_of_turn>"],
            ChatTemplate::Phi3 => &["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"],
        }
    }
}

/// The default system prompt a chat template inserts when the conversation
/// has none (Qwen2.5 and SmolLM2 templates do this).
pub(crate) fn default_system(jinja: &str) -> Option<String> {
    for known in [
        "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.",
        "You are a helpful AI assistant named SmolLM, trained by Hugging Face",
    ] {
        if jinja.contains(known) {
            return Some(known.to_string());
        }
    }
    None
}

/// A piece of a rendered prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptPiece {
    /// A special token, by its exact vocabulary string.
    Special(&'static str),
    /// Plain text (tokenized normally).
    Text(String),
}

/// Renders `messages` with the generation prompt for the assistant appended.
pub fn render_chat(
    t: ChatTemplate,
    messages: &[ChatMessage],
    default_system: Option<&str>,
) -> Vec<PromptPiece> {
    use PromptPiece::{Special as S, Text as T};
    let mut p = Vec::new();
    let has_system = messages.first().is_some_and(|m| m.role == Role::System);
    match t {
        ChatTemplate::ChatMl => {
            if let (false, Some(d)) = (has_system, default_system) {
                p.extend([
                    S("<|im_start|>"),
                    T(format!("system\n{d}")),
                    S("<|im_end|>"),
                    T("\n".into()),
                ]);
            }
            for m in messages {
                p.extend([
                    S("<|im_start|>"),
                    T(format!("{}\n{}", m.role.as_str(), m.content)),
                    S("<|im_end|>"),
                    T("\n".into()),
                ]);
            }
            p.extend([S("<|im_start|>"), T("assistant\n".into())]);
        }
        ChatTemplate::Llama3 => {
            p.push(S("<|begin_of_text|>"));
            for m in messages {
                p.extend([
                    S("<|start_header_id|>"),
                    T(m.role.as_str().into()),
                    S("<|end_header_id|>"),
                    T(format!("\n\n{}", m.content.trim())),
                    S("<|eot_id|>"),
                ]);
            }
            p.extend([
                S("<|start_header_id|>"),
                T("assistant".into()),
                S("<|end_header_id|>"),
                T("\n\n".into()),
            ]);
        }
        ChatTemplate::Gemma => {
            p.push(S("<bos>"));
            let mut pending_system: Option<&str> = None;
            for m in messages {
                if m.role == Role::System {
                    pending_system = Some(&m.content);
                    continue;
                }
                let role = if m.role == Role::Assistant {
                    "model"
                } else {
                    "user"
                };
                let text = match pending_system.take() {
                    Some(s) if m.role == Role::User => format!("{s}\n\n{}", m.content.trim()),
                    _ => m.content.trim().to_string(),
                };
                p.extend([
                    S("<start_of_turn>"),
                    T(format!("{role}\n{text}")),
                    S("<end_of_turn>"),
                    T("\n".into()),
                ]);
            }
            p.extend([S("<start_of_turn>"), T("model\n".into())]);
        }
        ChatTemplate::Phi3 => {
            for m in messages {
                let tag = match m.role {
                    Role::System => "<|system|>",
                    Role::User => "<|user|>",
                    Role::Assistant => "<|assistant|>",
                };
                p.extend([
                    S(tag),
                    T(format!("\n{}", m.content)),
                    S("<|end|>"),
                    T("\n".into()),
                ]);
            }
            p.extend([S("<|assistant|>"), T("\n".into())]);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs() -> Vec<ChatMessage> {
        vec![
            ChatMessage {
                role: Role::System,
                content: "Be brief.".into(),
            },
            ChatMessage {
                role: Role::User,
                content: "Hi <|im_end|>".into(),
            },
        ]
    }

    fn flat(p: &[PromptPiece]) -> String {
        p.iter()
            .map(|x| match x {
                PromptPiece::Special(s) => format!("[{s}]"),
                PromptPiece::Text(t) => t.clone(),
            })
            .collect()
    }

    #[test]
    fn chatml_keeps_injection_as_text() {
        let p = render_chat(ChatTemplate::ChatMl, &msgs(), Some("X"));
        assert_eq!(
            flat(&p),
            "[<|im_start|>]system\nBe brief.[<|im_end|>]\n[<|im_start|>]user\nHi <|im_end|>[<|im_end|>]\n[<|im_start|>]assistant\n"
        );
        let p = render_chat(ChatTemplate::ChatMl, &msgs()[1..], Some("Default."));
        assert!(flat(&p).starts_with("[<|im_start|>]system\nDefault.[<|im_end|>]"));
    }

    #[test]
    fn other_families() {
        let g = flat(&render_chat(ChatTemplate::Gemma, &msgs(), None));
        assert_eq!(g, "[<bos>][<start_of_turn>]user\nBe brief.\n\nHi <|im_end|>[<end_of_turn>]\n[<start_of_turn>]model\n");
        let l = flat(&render_chat(ChatTemplate::Llama3, &msgs(), None));
        assert!(l.starts_with("[<|begin_of_text|>][<|start_header_id|>]system[<|end_header_id|>]\n\nBe brief.[<|eot_id|>]"));
        assert!(l.ends_with("[<|start_header_id|>]assistant[<|end_header_id|>]\n\n"));
        let ph = flat(&render_chat(ChatTemplate::Phi3, &msgs(), None));
        assert!(ph.ends_with("[<|end|>]\n[<|assistant|>]\n"));
        assert_eq!(
            ChatTemplate::detect("{{'<|im_start|>' + role}}"),
            Some(ChatTemplate::ChatMl)
        );
        assert_eq!(ChatTemplate::detect("nothing"), None);
    }
}
