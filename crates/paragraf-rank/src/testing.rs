//! Test and bench helpers (feature `testing`): a concise [`Chunk`] builder
//! and a realistic 200-candidate fixture.

use crate::rank::Candidate;
use paragraf_types::{
    Chunk, ChunkId, Domain, Framework, Jurisdiction, Lang, NormRef, SourceClass, SourceRole, Status,
};

/// Builder of a [`Chunk`] with defaults of a German binding DE/EU norm.
#[derive(Debug, Clone)]
pub struct ChunkBuilder(Chunk);

/// Start a chunk of `regulation` / `norm` (`"DSGVO", "Art. 37"`). Defaults:
/// binding_law / obligation, jurisdiction EU for EU acts (`DSGVO`, `NIS2`,
/// `CRA`, `KI-VO`, `MVO`, `JI-RL`, …) and DE otherwise, no domain, in force.
pub fn chunk(regulation: &str, norm: &str) -> ChunkBuilder {
    let eu = [
        "DSGVO",
        "NIS2",
        "CRA",
        "KI-VO",
        "MVO",
        "PLD",
        "ePrivacy-RL",
        "DORA",
        "Data Act",
        "CSA",
        "RED",
        "GPSR",
        "JI-RL",
    ];
    let jurisdiction = if eu.contains(&regulation) {
        Jurisdiction::Eu
    } else {
        Jurisdiction::De
    };
    let mut c = Chunk::new(
        regulation,
        norm,
        format!("Text von {norm} {regulation}"),
        Lang::De,
        "fixture",
    );
    c.jurisdiction = jurisdiction;
    ChunkBuilder(c)
}

impl ChunkBuilder {
    /// Set the language (the id gets the language suffix of non-German text).
    pub fn lang(mut self, lang: Lang) -> Self {
        self.0.lang = lang;
        self.0.id = ChunkId::new(&self.0.regulation, &self.0.norm, None, lang);
        self
    }

    /// Set the heading.
    pub fn title(mut self, title: &str) -> Self {
        self.0.title = title.to_string();
        self
    }

    /// Set the text.
    pub fn text(mut self, text: &str) -> Self {
        self.0.text = text.to_string();
        self
    }

    /// Set source class and role.
    pub fn class(mut self, class: SourceClass, role: SourceRole) -> Self {
        self.0.source_class = class;
        self.0.source_role = role;
        self
    }
    /// Set the role only.
    pub fn role(mut self, role: SourceRole) -> Self {
        self.0.source_role = role;
        self
    }
    pub fn juris(mut self, j: Jurisdiction) -> Self {
        self.0.jurisdiction = j;
        self
    }
    pub fn domains(mut self, d: &[Domain]) -> Self {
        self.0.domains = d.to_vec();
        self
    }
    /// Mark superseded by `successor`, in force from `from` through `to` (inclusive, as in the manifest).
    pub fn superseded(mut self, successor: &str, from: Option<&str>, to: &str) -> Self {
        self.0.status = Status::Superseded;
        self.0.superseded_by = Some(successor.to_string());
        self.0.valid_from = from.map(str::to_string);
        self.0.valid_to = Some(to.to_string());
        self
    }
    pub fn valid_from(mut self, from: &str) -> Self {
        self.0.valid_from = Some(from.to_string());
        self
    }
    /// Append a sub-unit to the id (`Abs.1`) so one norm can have several chunks.
    pub fn part(mut self, sub: &str) -> Self {
        self.0.id = ChunkId::new(&self.0.regulation, &self.0.norm, Some(sub), self.0.lang);
        self.0.citation = format!("{} {sub} {}", self.0.norm, self.0.regulation);
        self
    }
    pub fn refs(mut self, out: &[&str], inn: &[&str]) -> Self {
        self.0.references_out = out.iter().map(|s| NormRef(s.to_string())).collect();
        self.0.references_in = inn.iter().map(|s| NormRef(s.to_string())).collect();
        self
    }
    pub fn framework(mut self, id: &str, control: &str, family: &str) -> Self {
        self.0.framework = Some(Framework {
            framework_id: id.to_string(),
            framework_control_id: control.to_string(),
            framework_family: family.to_string(),
        });
        self
    }
    pub fn build(self) -> Chunk {
        self.0
    }
}

/// A candidate with only a dense cosine.
pub fn dense(chunk: &Chunk, cos: f32) -> Candidate<'_> {
    Candidate {
        chunk,
        dense: Some(cos),
        lexical: None,
        sparse: None,
        heading: None,
        exact: false,
        pairs: None,
    }
}

/// The query of the 200-candidate fixture (an implementation question with
/// control intent and two domains).
pub const FIXTURE_QUERY: &str =
    "Welche Maßnahmen zur Absicherung muss ein Hersteller nach DSGVO und CRA für Produkte mit digitalen Elementen umsetzen?";

/// A realistic pool of `n` chunks: binding law of several regimes and
/// jurisdictions, recitals, guidance, control standards, mappings,
/// superseded versions and unknown sources, with references; deterministic.
pub fn fixture_chunks(n: usize) -> Vec<Chunk> {
    let regs: [(&str, Jurisdiction, Domain, SourceClass, SourceRole); 10] = [
        (
            "DSGVO",
            Jurisdiction::Eu,
            Domain::DataProtection,
            SourceClass::BindingLaw,
            SourceRole::Obligation,
        ),
        (
            "BDSG",
            Jurisdiction::De,
            Domain::DataProtection,
            SourceClass::BindingLaw,
            SourceRole::Obligation,
        ),
        (
            "CRA",
            Jurisdiction::Eu,
            Domain::Cyber,
            SourceClass::BindingLaw,
            SourceRole::OperationalRequirement,
        ),
        (
            "NIS2",
            Jurisdiction::Eu,
            Domain::Cyber,
            SourceClass::BindingLaw,
            SourceRole::ProceduralRequirement,
        ),
        (
            "revDSG",
            Jurisdiction::Ch,
            Domain::DataProtection,
            SourceClass::BindingLaw,
            SourceRole::Obligation,
        ),
        (
            "DSGVO",
            Jurisdiction::Eu,
            Domain::DataProtection,
            SourceClass::Recital,
            SourceRole::Interpretation,
        ),
        (
            "ENISA",
            Jurisdiction::Eu,
            Domain::Cyber,
            SourceClass::OfficialGuidance,
            SourceRole::ImplementationGuidance,
        ),
        (
            "NIST SP 800-53",
            Jurisdiction::Int,
            Domain::Cyber,
            SourceClass::ControlStandard,
            SourceRole::ControlStandard,
        ),
        (
            "BDSG 1990",
            Jurisdiction::De,
            Domain::DataProtection,
            SourceClass::BindingLaw,
            SourceRole::Obligation,
        ),
        (
            "Vendor",
            Jurisdiction::Int,
            Domain::Cyber,
            SourceClass::Unknown,
            SourceRole::ImplementationGuidance,
        ),
    ];
    (0..n)
        .map(|i| {
            let (reg, j, d, class, role) = regs[i % regs.len()];
            let num = 1 + (i * 7) % 99;
            let norm = match class {
                SourceClass::Recital => format!("ErwG {num}"),
                SourceClass::ControlStandard => format!("AC-{num}"),
                SourceClass::OfficialGuidance | SourceClass::Unknown => format!("Kap. {num}"),
                _ if reg == "BDSG" || reg == "BDSG 1990" => format!("§ {num}"),
                _ => format!("Art. {num}"),
            };
            let mut b = chunk(reg, &norm)
                .class(class, role)
                .juris(j)
                .domains(&[d])
                .part(&format!("p{i}"))
                .refs(
                    &[&format!("Art. {} DSGVO", num % 50 + 1), "Art. 32 DSGVO"],
                    &[&format!("§ {} BDSG", num % 80 + 1)],
                );
            if reg == "BDSG 1990" {
                b = b.superseded("BDSG", Some("1991-06-01"), "2018-05-24");
            }
            if class == SourceClass::ControlStandard {
                b = b.framework("NIST-SP-800-53r5", &norm, "AC");
            }
            b.build()
        })
        .collect()
}

/// Candidates for [`fixture_chunks`]: deterministic pseudo-random dense
/// cosines in [0.55, 0.9], BM25 for two thirds, sparse for a third, one
/// exact lookup.
pub fn fixture_candidates(chunks: &[Chunk]) -> Vec<Candidate<'_>> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let d = 0.55 + 0.35 * next();
            let l = next() * 18.0;
            let s = next() * 0.4;
            Candidate {
                chunk: c,
                dense: Some(d as f32),
                lexical: (!i.is_multiple_of(3)).then_some(l as f32),
                sparse: i.is_multiple_of(3).then_some(s as f32),
                heading: None,
                exact: i == 7,
                pairs: None,
            }
        })
        .collect()
}
