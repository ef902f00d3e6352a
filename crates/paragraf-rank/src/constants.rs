//! Every constant of the ranking, with its reason.
//!
//! The seed constants (chapters 02, 05, 06, 07) are the specification, to the
//! last digit; each is pinned by the named test in `tests/constants.rs`, which
//! fails when the value changes. The fusion and pool constants are this
//! crate's own (design 01: "document the method and why"); the eval can
//! override all of them through [`crate::RankParams`] without recompiling.
//!
//! Every rank parameter is declared once, in the table `rank_knobs!`: field, constant,
//! seed name (the `--params` key and the name explanations show), type,
//! default, range check and meaning. The table makes the `pub const`s, and
//! `params.rs` makes from it the fields of [`crate::RankParams`], their
//! `Default`, the range checks, [`crate::params::names`] and
//! [`crate::RankParams::KNOBS`]. A new knob is one entry here plus its use.

/// The rank parameters, one entry each:
/// `field, CONST, "seedName": type = default, check;` with the meaning as
/// doc comment. `check` is `finite`, `nonneg` (finite, >= 0), `positive`
/// (finite, > 0), `share` (0..=1) or `any` (no range). Called with the name
/// of a macro that takes the table.
macro_rules! rank_knobs {
    ($callback:ident) => {
        $callback! {
            // ---------------------------------------------------------------- seed 02: authority rerank

            /// `authorityCoef` = 0.40 — multiplier of the source-class weight (design 03,
            /// 0..=100) in `authorityCoef · weight/100`; binding law gains 0.40, guidance
            /// 0.24, a control standard 0.20. Unit: score points. Seed 02.
            /// Pinned by `pin_authority_coef`.
            authority_coef, AUTHORITY_COEF, "authorityCoef": f64 = 0.40, finite;

            /// `jurisdictionGain` = 0.05 — bonus for a source of the question's
            /// jurisdiction (DE/EU for a default question). Seed 02. Pinned by `pin_jurisdiction_gain`.
            jurisdiction_gain, JURISDICTION_GAIN, "jurisdictionGain": f64 = 0.05, finite;

            /// `foreignPenalty` = 0.60 — penalty for foreign law (e.g. CH) on a DE/EU
            /// question; never when the question names that jurisdiction. Demotes, never
            /// removes. Seed 02. Pinned by `pin_foreign_penalty`.
            foreign_penalty, FOREIGN_PENALTY, "foreignPenalty": f64 = 0.60, finite;

            /// `unknownPenalty` = 0.08 — penalty for an unclassified source
            /// (`source_class = unknown`). Seed 02. Pinned by `pin_unknown_penalty`.
            unknown_penalty, UNKNOWN_PENALTY, "unknownPenalty": f64 = 0.08, finite;

            /// `domainMatchGain` = 0.15 — bonus when a chunk domain equals a question
            /// domain. Seed 02. Pinned by `pin_domain_match_gain`.
            domain_match_gain, DOMAIN_MATCH_GAIN, "domainMatchGain": f64 = 0.15, finite;

            /// `domainCoverGain` = 0.05 — own, beside `domainMatchGain`: for each
            /// further question domain a chunk's law covers (a cookie question is data
            /// protection and telecom: the TDDDG covers both, the DSGVO one; ICT
            /// incidents at a bank: DORA covers cyber and finance). Measured on the full
            /// e5-small index (session 18), hit@1 full / hand topics off, 0 → 0.05 →
            /// 0.10: golden-para 0.944 / 0.694 → 0.944 / 0.694 (hit@5 hand topics off
            /// 0.778 → 0.806) → 0.917 / 0.694; golden-dev unchanged; own sets (431)
            /// 0.640 / 0.561 → 0.643 / 0.564 → 0.643 / 0.564 (0.10 also moved a
            /// newsletter-consent and a privacy-by-design question to UWG and TDDDG).
            /// Pinned by `pin_domain_cover_gain`.
            domain_cover_gain, DOMAIN_COVER_GAIN, "domainCoverGain": f64 = 0.05, finite;

            /// `offDomainPenalty` = 0.10 — penalty for binding law of a different domain
            /// than the question's (e.g. DSGVO on a pure cyber question). Seed 02.
            /// Pinned by `pin_off_domain_penalty`.
            off_domain_penalty, OFF_DOMAIN_PENALTY, "offDomainPenalty": f64 = 0.10, finite;

            /// `scopePenalty` = 0.25 — penalty for BDSG Teil 3 (§§ 45–84,
            /// law enforcement) on a general data-protection question (scope rules in the
            /// lexicon). Seed 02. Pinned by `pin_scope_penalty`.
            scope_penalty, SCOPE_PENALTY, "scopePenalty": f64 = 0.25, finite;

            /// `scopeMatchGain` = 0.10 — the other side of `scopePenalty` (own, seed
            /// 02): at a law-enforcement question the norms a general question is kept
            /// from (BDSG Teil 3, the JI-RL: scope rules with an `in_scope` text) are the
            /// ones it is about. Measured on the full e5-small index (session 18),
            /// hit@1 full / hand topics off at 0 → 0.05 → 0.10 → 0.15: own-lawenf (15
            /// own law-enforcement questions, written for this) 0.533 / 0.467 → 0.667 /
            /// 0.667 → 0.733 / 0.733 → 0.733 / 0.800; golden-dev and golden-para gain one
            /// question each with hand topics off; the 416 other own questions do not
            /// move. Pinned by `pin_scope_match_gain`.
            scope_match_gain, SCOPE_MATCH_GAIN, "scopeMatchGain": f64 = 0.10, finite;

            /// `topicGain` = 0.18 — bonus for the canonical norm of a detected topic
            /// (e.g. Art. 37 DSGVO on a DPO question) or an explicitly cited norm.
            /// Seed 02. Pinned by `pin_topic_gain`.
            topic_gain, TOPIC_GAIN, "topicGain": f64 = 0.18, finite;

            /// `supersededPenalty` = 0.50 — penalty for a superseded source so that a
            /// default question sees the version in force while history stays findable;
            /// under an as-of question it moves to the version not in force at that date
            /// (08). Seed 02/08. Pinned by `pin_superseded_penalty`.
            superseded_penalty, SUPERSEDED_PENALTY, "supersededPenalty": f64 = 0.50, finite;

            /// `intentLiftGain` = 0.10 — under guidance intent the best competitive
            /// guidance is lifted to (best binding score + 0.10). Seed 02.
            /// Pinned by `pin_intent_lift_gain`.
            intent_lift_gain, INTENT_LIFT_GAIN, "intentLiftGain": f64 = 0.10, finite;

            /// `intentLiftMargin` = 0.05 — margin guard of the lift: only a guidance whose
            /// raw semantic lies within 0.05 of the best binding result's raw semantic is
            /// lifted. Seed 02. Pinned by `pin_intent_lift_margin`.
            intent_lift_margin, INTENT_LIFT_MARGIN, "intentLiftMargin": f64 = 0.05, finite;

            /// `citationGain` = 0.05 (own, next to seed 02's authority terms) — bonus
            /// for binding law that other norms cite: a norm the law itself refers to
            /// from many places is central to its regime (Art. 6, 9, 15 DSGVO; § 2
            /// BSIG), and a question that names its subject in everyday words means it
            /// more likely than a peripheral norm with similar wording. Scaled by
            /// `ln(1 + citing norms) / ln(1 + citationSaturation)`, at most 1, so a few
            /// citations count and many saturate. Measured on our own phrasings
            /// (`eval/sets/own-tuning.jsonl`): hit@1 0.562 → 0.625. Pinned by
            /// `pin_citation_gain`.
            citation_gain, CITATION_GAIN, "citationGain": f64 = 0.05, finite;

            /// `answerTypeGain` = 0.15 (own, next to seed 02's topicGain) — bonus for
            /// a norm that states the kind of fact the question asks for: a deadline
            /// („bis wann“, „wie lange“), an amount („wie hoch ist das Bußgeld“), an
            /// age („ab welchem Alter“), a head count („ab wie vielen Beschäftigten“)
            /// (`crate::answer_type`; question patterns in `[answer_type]` of the
            /// lexicon). Such a question is about one rule of its subject, and a hand
            /// topic or heading names the subject's central norm: § 1 ProdHaftG makes
            /// the manufacturer liable, § 12 ProdHaftG says when the claim lapses.
            /// Below topicGain, so a named subject norm that states the fact itself
            /// keeps its lead. Measured on the full e5-small index (session 14,
            /// own tuning sets with own-heldout-8, 306 questions, hit@1 stage full):
            /// 0.05 / 0.10 / 0.15 / 0.20 gave +0.003 / +0.013 / +0.023 / +0.026 in a
            /// replay of the ranked lists; 0.15 keeps it under topicGain. A
            /// consequence question („Was droht …“, "What are the penalties …")
            /// asks for a consequence: its law's sanction and liability norms take
            /// the gain as one more kind (`AnswerType::Consequence`, the engine's
            /// consequence norms), where it asks for no number — measured on the
            /// full e5-small index (session 61) on `scripts/consequence-battery.py`
            /// (282 own questions, 25 laws): hit@1 0.787 → 0.883; no golden, tuning
            /// or own question moved at stage full. Likewise a definition question
            /// („Was ist …“, "What is a …") asks for a definition: the law's
            /// definition of the asked term takes the gain (`AnswerType::Definition`;
            /// not a yes/no question whether something is the term) —
            /// `scripts/defined-terms-battery.py` (472 own questions) 0.926 → 0.945,
            /// real-tuning-2 one question up, held-out 0.601 → 0.611. Pinned by
            /// `pin_answer_type_gain`.
            answer_type_gain, ANSWER_TYPE_GAIN, "answerTypeGain": f64 = 0.15, finite;

            /// `dutyHeadingGain` = 0.06 (own) — bonus for a candidate norm whose heading
            /// names a duty („Pflicht zur Einrichtung interner Meldestellen“,
            /// „Transparenzpflichten …“, "Obligations of distributors") and, beside it,
            /// a term of the question (the engine's `note_duty_norms`) when the question
            /// asks who must do what (`[duty_intent]` of the lexicon: „wer muss“,
            /// „verpflichtet“, „Pflichten“, "must", "obligations"). Real questions ask
            /// for the addressee of a duty in the verb („Wer muss sich eintragen
            /// lassen?“), the law answers in the norm it heads as the duty; registers,
            /// procedures and inspection rights on the same subject share the words.
            /// Small, under answerTypeGain and topicGain: it orders close norms of one
            /// subject, never overrides a named one. Measured on the full e5-small index
            /// (real-tuning pages, replay of the ranked lists): 0.05 no change, 0.06 and
            /// 0.08 +3 questions from three pages and no loss, 0.10 loses one; golden-dev
            /// and golden-para unchanged up to 0.10. With the subject term required
            /// (2026-12-07): 0.06 gains, 0.09 loses golden-dev hand topics off twice.
            /// Pinned by `pin_duty_heading_gain`.
            duty_heading_gain, DUTY_HEADING_GAIN, "dutyHeadingGain": f64 = 0.06, finite;

            /// `citationSaturation` = 20 — citing norms at which `citationGain` is
            /// reached in full. Pinned by `pin_citation_gain`.
            citation_saturation, CITATION_SATURATION, "citationSaturation": f64 = 20.0, positive;

            // ---------------------------------------------------------------- seed 05: control roles

            /// `controlPoolGain` = 0.15 — added to every control-pool role under control
            /// intent. Seed 05. Pinned by `pin_control_pool_gain`.
            control_pool_gain, CONTROL_POOL_GAIN, "controlPoolGain": f64 = 0.15, finite;

            // ---------------------------------------------------------------- seed 06/07: assessment

            /// `assessConnectedCap` = 12 — at most 12 connected norms in the assessment.
            /// Seed 06. Pinned by `pin_assess_connected_cap`.
            assess_connected_cap, ASSESS_CONNECTED_CAP, "assessConnectedCap": usize = 12, any;

            /// `assessCrossRegimeTopN` = 5 — window of results over which cross-regime
            /// is judged. Seed 06. Pinned by `pin_assess_cross_regime_top_n`.
            assess_cross_regime_top_n, ASSESS_CROSS_REGIME_TOP_N, "assessCrossRegimeTopN": usize = 5, any;

            /// `assessReviewMargin` = 0.05 — winner margin below this flags human
            /// review. Seed 06/07. Pinned by `pin_assess_review_margin`.
            assess_review_margin, ASSESS_REVIEW_MARGIN, "assessReviewMargin": f64 = 0.05, finite;

            /// `abstainSemanticFloor` = 0.35 (own) — when the best result's
            /// `raw_semantic` lies below it, nothing relevant was found: human review
            /// ("keine belastbare Quelle"). Scale: fused raw semantic in [0,1].
            /// Pinned by `pin_abstain_semantic_floor`.
            abstain_semantic_floor, ABSTAIN_SEMANTIC_FLOOR, "abstainSemanticFloor": f64 = 0.35, finite;

            // ---------------------------------------------------------------- fusion (own, design 01)

            /// `denseWeight` = 0.55 — weight of the calibrated dense cosine in the fused
            /// raw semantic. Pinned by `pin_fusion_defaults`.
            dense_weight, DENSE_WEIGHT, "denseWeight": f64 = 0.55, nonneg;

            /// `lexicalWeight` = 0.30 — weight of the normalised BM25 score.
            /// Pinned by `pin_fusion_defaults`.
            lexical_weight, LEXICAL_WEIGHT, "lexicalWeight": f64 = 0.30, nonneg;

            /// `sparseWeight` = 0.15 — weight of the normalised learned-sparse score.
            /// Pinned by `pin_fusion_defaults`.
            sparse_weight, SPARSE_WEIGHT, "sparseWeight": f64 = 0.15, nonneg;

            /// `denseFloor` = 0.0 — cosine mapped to 0 (calibration, per embedder).
            /// Pinned by `pin_fusion_defaults`.
            dense_floor, DENSE_FLOOR, "denseFloor": f64 = 0.0, finite;

            /// `denseCeil` = 1.0 — cosine mapped to 1 (calibration, per embedder).
            /// Pinned by `pin_fusion_defaults`.
            dense_ceil, DENSE_CEIL, "denseCeil": f64 = 1.0, finite;

            /// `lexicalNormFloor` = 10.0 — BM25 is divided by max(best BM25 of the
            /// query, 10.0): a strong lexical winner gets 1, while on a query where even
            /// the best match is weak nothing is inflated to 1. Unit: BM25 points.
            /// Pinned by `pin_fusion_defaults`.
            lexical_norm_floor, LEXICAL_NORM_FLOOR, "lexicalNormFloor": f64 = 10.0, positive;

            /// `sparseNormFloor` = 0.2 — the same floor for learned-sparse dot products.
            /// Pinned by `pin_fusion_defaults`.
            sparse_norm_floor, SPARSE_NORM_FLOOR, "sparseNormFloor": f64 = 0.2, positive;

            /// `exactFloor` = 0.75 — an explicit-reference lookup hit gets at least this
            /// raw semantic: the user named the norm. Pinned by `pin_fusion_defaults`.
            exact_floor, EXACT_FLOOR, "exactFloor": f64 = 0.75, finite;

            /// `rrfK` = 60 — k of reciprocal-rank fusion (the alternative method).
            /// Pinned by `pin_fusion_defaults`.
            rrf_k, RRF_K, "rrfK": f64 = 60.0, positive;

            // ---------------------------------------------------------------- heading signal (own, 01 topic → norm)
            // A strong match of the question's terms on a norm's heading (or a defined
            // term under definition intent) gives that norm `topicGain`, as a lexicon
            // topic does (`crate::headings`). Idf is taken over all headings of the index.

            /// `headingMinCoverage` = 0.6 — share of a heading's idf mass the question
            /// must cover (all or most of the heading's words). Pinned by `pin_heading_defaults`.
            heading_min_coverage, HEADING_MIN_COVERAGE, "headingMinCoverage": f64 = 0.6, finite;
            /// `headingMinWeight` = 7.0 — idf mass the matched heading words must reach:
            /// one word found in ≤ ~0.5 % of the headings, or two ordinary ones; a
            /// heading word found in many acts („Begriffsbestimmungen“, „Gegenstand“)
            /// never fires alone. Pinned by `pin_heading_defaults`.
            heading_min_weight, HEADING_MIN_WEIGHT, "headingMinWeight": f64 = 7.0, finite;
            /// `headingRelativeMin` = 0.8 — a strong match fires only within 0.8 × the
            /// best match's `weight × coverage` (the question names one subject, not
            /// every heading that shares a word). Pinned by `pin_heading_defaults`.
            heading_relative_min, HEADING_RELATIVE_MIN, "headingRelativeMin": f64 = 0.8, finite;
            /// `headingMaxNorms` = 3 — most distinct headings a heading match names per
            /// question, the best by `weight × coverage`; every norm carrying one of
            /// them fires (the same heading in several laws counts once). Pinned by `pin_heading_defaults`.
            heading_max_norms, HEADING_MAX_NORMS, "headingMaxNorms": usize = 3, any;

            /// `headingCommonShare` = 0.5 — a heading word found in at least this share
            /// of its law's norms (same language, laws of at least
            /// [`crate::constants::HEADING_COMMON_MIN_NORMS`] norms; heading and text of every chunk) is
            /// the law's own vocabulary, not one norm's subject: ‘products with digital
            /// elements’ in the CRA, „Meldestelle“ in the HinSchG, „Beschäftigte“ in
            /// the ArbSchG. A question naming it names the law; the heading's other
            /// words must name the norm. Pinned by `pin_heading_defaults`.
            heading_common_share, HEADING_COMMON_SHARE, "headingCommonShare": f64 = 0.5, share;
            /// `headingCommonCredit` = 0.5 — share of its idf such a common word earns
            /// in a heading match (1 = no discount; the heading's idf mass, the
            /// coverage's denominator, is unchanged). Measured on the full e5-small
            /// index (session 13), hit@1 off → on, stage full / hand topics off: own
            /// tuning sets (276 questions) 0.678 → 0.685 / 0.576 → 0.587,
            /// own-heldout-6 0.480 → 0.520 / 0.440 → 0.480, golden-dev 1.000 → 0.972
            /// (a CRA question now led by Art. 13 „Obligations of manufacturers“, no
            /// longer by the critical-products heading, and its topic norm Art. 14
            /// second) / 0.889 → 0.917, golden-para unchanged. Shares 0.4 and 0.6 were
            /// tried: 0.4 kept golden-dev but not the held-out gain, 0.6 lost a
            /// golden-para English question. Pinned by `pin_heading_defaults`.
            heading_common_credit, HEADING_COMMON_CREDIT, "headingCommonCredit": f64 = 0.5, share;

            // ---------------------------------------------------------------- heading vectors (own, 01 fusion)
            // Every norm heading is embedded on its own (`paragraf_index::HeadingVectors`);
            // the cosine of the question with the best heading of a candidate's norm is a
            // fourth fusion channel: the dense counterpart of a BM25F heading field. It
            // is a property of the norm, so every chunk of the norm carries it.

            /// `headingWeight` = 0.0 — weight of the calibrated heading cosine in the
            /// fused raw semantic (next to `denseWeight` etc.; `raw = Σ w·x / Σ w`).
            /// Off by default: with multilingual-e5-small, heading vectors ranked worse
            /// than chunk vectors (heading-only hit@1 0.15 vs 0.25 on
            /// `eval/sets/own-tuning.jsonl`) and every weight tried (0.35, 0.7; floors
            /// 0.7–0.8) lowered the full pipeline (0.562 → 0.51–0.54). Index builds
            /// embed headings only with `--heading-vectors`, for embedders where they
            /// may pay (bge-m3). Pinned by `pin_heading_vector_defaults`.
            heading_weight, HEADING_WEIGHT, "headingWeight": f64 = 0.0, nonneg;
            /// `headingFloor` = 0.0 — heading cosine mapped to 0 (calibration per
            /// embedder, like `denseFloor`). Pinned by `pin_heading_vector_defaults`.
            heading_floor, HEADING_FLOOR, "headingFloor": f64 = 0.0, finite;
            /// `headingCeil` = 1.0 — heading cosine mapped to 1. Pinned by
            /// `pin_heading_vector_defaults`.
            heading_ceil, HEADING_CEIL, "headingCeil": f64 = 1.0, finite;
            /// `headingTopN` = 20 — norms whose heading is nearest to the question join
            /// the candidate pool with all their chunks (when the index has heading
            /// vectors and `headingWeight` > 0). Pinned by `pin_heading_vector_defaults`.
            heading_top_n, HEADING_TOP_N, "headingTopN": usize = 20, any;

            // ---------------------------------------------------------------- law titles (own, 02 domain → law)
            // A law's own title names its subject („Gesetz zum Elterngeld und zur
            // Elternzeit“, „Mutterschutzgesetz“ → Mutterschutz). A question holding a
            // word of a title variant (`headings::law_title_variants`) that the law's
            // own text is about (`lawTitleMinLift`) names that law: its chunks get
            // `lawTitleGain` and its best BM25 chunks join the pool. The domain signal
            // of seed 02 at the grain of one law, for every law of the archive without
            // a hand entry.

            /// `lawTitleGain` = 0.10 — bonus for a chunk of a law the question names by
            /// its title's words. Below `domainMatchGain` (0.15): a title names the
            /// law, not the norm. Pinned by `pin_law_title_defaults`.
            law_title_gain, LAW_TITLE_GAIN, "lawTitleGain": f64 = 0.10, finite;

            // ---------------------------------------------------------------- synonyms (own, 01 lexical retrieval)
            /// `synonymBm25Weight` = 0.6 — weight of a synonym of a question word in
            /// the BM25 query, relative to the question's own terms (1.0). Synonyms come
            /// from OpenThesaurus (`crate::synonyms`), kept where a norm heading holds
            /// them; every sense of a word is added, so they count less than the word
            /// itself. 0 turns them off. Chosen from 0.3 / 0.6 / 1.0 on all own and
            /// golden sets (session 10). Pinned by `pin_synonym_default`.
            synonym_bm25_weight, SYNONYM_BM25_WEIGHT, "synonymBm25Weight": f64 = 0.6, finite;
            /// `lawTitleMinLift` = 30 — how much more often the law's chunks must hold
            /// a title word than the corpus's chunks do (`(df_L/n_L)/(df/N)`): the
            /// law's text is about the word its title names (Elternzeit in the BEEG,
            /// lift ≈ 227 over all federal law), not a word every law uses (Daten,
            /// Datenschutz in the BDSG: ≈ 13–26). Pinned by `pin_law_title_defaults`.
            law_title_min_lift, LAW_TITLE_MIN_LIFT, "lawTitleMinLift": f64 = 30.0, finite;
            /// `lawTitleMaxLaws` = 2 — most laws a question names by title.
            /// Pinned by `pin_law_title_defaults`.
            law_title_max_laws, LAW_TITLE_MAX_LAWS, "lawTitleMaxLaws": usize = 2, any;
            /// `lawTitleTopN` = 20 — best BM25 chunks of a named law that join the
            /// candidate pool. Pinned by `pin_law_title_defaults`.
            law_title_top_n, LAW_TITLE_TOP_N, "lawTitleTopN": usize = 20, any;

            // ---------------------------------------------------------------- named jurisdiction (own, 02 jurisdiction)
            /// `jurisdictionTopN` = 20 — best BM25 chunks of a foreign jurisdiction
            /// the question names („in der Schweiz“, "in the UK"; not DE/EU, the
            /// default) that join the candidate pool when dense and BM25 retrieval
            /// found no chunk of it at all: a small foreign act (revDSG, UK GDPR)
            /// drowns in a pool of federal and EU law, though `jurisdictionGain` and
            /// `foreignPenalty` would rank it first. A fallback, not always: joined
            /// every time, its weakly matching chunks outranked the act's own hits
            /// (`eval/sets/own-foreign-2.jsonl`, 10 own CH/UK questions, hit@1 0.600 →
            /// 0.400); as a fallback 0.600 / 0.600 → 0.600 / 0.700 (hit@1 / hit@5),
            /// `own-foreign.jsonl` hit@1 0.357 either way, golden-para hand topics off
            /// hit@5 0.750 → 0.778; no other set moved. 0 turns it off. Pinned by
            /// `pin_jurisdiction_top_n`.
            jurisdiction_top_n, JURISDICTION_TOP_N, "jurisdictionTopN": usize = 20, any;

            // ---------------------------------------------------------------- recital bridge (own, 01 retrieval)
            // An EU act's recitals say in plain words what its articles regulate („Zum
            // Nachweis … sollte der Verantwortliche … ein Verzeichnis der
            // Verarbeitungstätigkeiten … führen“ explains Art. 30 DSGVO). A question in
            // everyday words often meets the recital, not the article. Each recital is
            // linked to the article chunk of its act and language nearest to it in the
            // index's own vectors; the article chunk inherits the recital's retrieval
            // evidence (dense and BM25, the higher of its own and the recital's), and
            // the authority rerank then puts binding text first. Measured on 34 own
            // recital → article pairs of the DSGVO: the nearest article is right for
            // 26 (German) and 26 (English).

            /// `recitalBridge` = false — link recitals to articles as above. Off by
            /// default: with multilingual-e5-small it moved one or two questions either
            /// way on every set and helped none as a whole (same index, full stage,
            /// hit@1 off → on: golden-para 0.833 → 0.806, own-tuning 0.750 → 0.750,
            /// own-heldout-2 0.600 → 0.600, golden-dev 1.000 → 1.000; hand topics off:
            /// golden-para 0.528 → 0.556, own-tuning 0.537 → 0.512; inheriting the
            /// dense score alone: golden-para 0.778, own-tuning 0.762). Kept as an
            /// ablation (`--params '{"recitalBridge": true}'`) for embedders whose
            /// recital → article links are better. Pinned by `pin_recital_bridge_default`.
            recital_bridge, RECITAL_BRIDGE, "recitalBridge": bool = false, any;
            /// `recitalBridgeMargin` = 0.005 — a recital is linked only when its
            /// nearest article is nearer than any other article by this cosine margin
            /// (on the 34 own pairs, German: 20 right, 4 wrong of 131 linked recitals
            /// of 211; without a margin 26 right, 8 wrong, and a few hub articles —
            /// Art. 1, 6, 9 — collect most links). Pinned by `pin_recital_bridge_default`.
            recital_bridge_margin, RECITAL_BRIDGE_MARGIN, "recitalBridgeMargin": f64 = 0.005, finite;

            // ---------------------------------------------------------------- norm BM25 (own, 01 lexical channel)
            // The user asks for a norm, not for a chunk: BM25 over the whole text of
            // each norm (all its chunks of one language as one document, idf over the
            // norms) finds the article whose paragraphs together hold the question's
            // words, where chunk BM25 rewards the one short paragraph that repeats one.

            /// `normLexicalMix` = 0.2 — share of the norm BM25 in a chunk's lexical
            /// score: `lexical = (1 − mix) · chunk BM25 + mix · norm BM25` (0: chunk
            /// BM25 alone). Picked from 0.2 / 0.4 / 0.6 on the full e5-small index
            /// (`eval/baselines/retrieval-norm-bm25-2026-12-03.md`): at 0.2 the 14 own sets
            /// together gain hit@1 (416 questions, 0.627 → 0.635; hand topics off
            /// 0.543 → 0.555), golden-para 0.917 → 0.944, golden-dev unchanged; 0.4
            /// and 0.6 lose it again. Pinned by `pin_norm_lexical_defaults`.
            norm_lexical_mix, NORM_LEXICAL_MIX, "normLexicalMix": f64 = 0.2, share;
            /// `normLexicalTopN` = 20 — norms with the best norm BM25 whose chunks join
            /// the candidate pool (when `normLexicalMix` > 0). Pinned by
            /// `pin_norm_lexical_defaults`.
            norm_lexical_top_n, NORM_LEXICAL_TOP_N, "normLexicalTopN": usize = 20, any;
            /// `pairLexicalGain` = 1.0 — two content words the question writes next
            /// to each other (stop words between aside: "register of information",
            /// „Recht auf Löschung“) name one thing; a chunk that writes them together
            /// too (at most two words apart) speaks of it. A chunk's BM25 is lifted to
            /// `bm25 · (1 + pairLexicalGain · share)`, `share` the part of the
            /// question's word pairs it holds so (the engine's `phrase` module; 0:
            /// off). Picked from 0.5 / 1.0 / 1.5 / 2.0 / 4.0 on the tuning pages of
            /// the real questions (full e5-small index,
            /// `eval/baselines/retrieval-real-7-2026-12-07.md`): at 1.0 real-tuning-2
            /// 0.745 → 0.787 and real-tuning-4 0.733 → 0.800 hit@1, real-tuning and
            /// real-tuning-3 unchanged, own + archive 428 → 430; 2.0 and 4.0 lose
            /// real-tuning questions. On LegalQuAD, tuned on by nobody, fused
            /// nDCG@10 0.850 → 0.869. Pinned by `pin_pair_lexical_gain`.
            pair_lexical_gain, PAIR_LEXICAL_GAIN, "pairLexicalGain": f64 = 1.0, nonneg;

            // ---------------------------------------------------------------- candidate pools (own)

            /// `denseTopN` = 100 — dense (HNSW) candidates per query.
            dense_top_n, DENSE_TOP_N, "denseTopN": usize = 100, any;
            /// `lexicalTopN` = 100 — BM25 candidates per query.
            lexical_top_n, LEXICAL_TOP_N, "lexicalTopN": usize = 100, any;
            /// `sparseTopN` = 50 — learned-sparse candidates per query.
            sparse_top_n, SPARSE_TOP_N, "sparseTopN": usize = 50, any;
            /// `topK` = 10 — results returned by default (and ranked at least,
            /// before the assessment): the one default of the CLI, the server
            /// and the eval, written once in `paragraf_types::limits`.
            top_k, TOP_K, "topK": usize = paragraf_types::limits::DEFAULT_TOP_K, any;
        }
    };
}
pub(crate) use rank_knobs;

macro_rules! declare_consts {
    ($($(#[doc = $doc:literal])* $field:ident, $konst:ident, $name:literal: $ty:ty = $val:expr, $check:ident;)*) => {
        $($(#[doc = $doc])* pub const $konst: $ty = $val;)*
    };
}
rank_knobs!(declare_consts);

// ---------------------------------------------------------------- constants that are no rank parameter

/// `controlRoleBonus[operational_requirement]` = 0.100. Seed 05.
/// Pinned by `pin_control_role_bonus`.
pub const CONTROL_ROLE_BONUS_OPERATIONAL_REQUIREMENT: f64 = 0.100;

/// `controlRoleBonus[procedural_requirement]` = 0.075. Seed 05.
/// Pinned by `pin_control_role_bonus`.
pub const CONTROL_ROLE_BONUS_PROCEDURAL_REQUIREMENT: f64 = 0.075;

/// `controlRoleBonus[control_standard]` = 0.050. Seed 05.
/// Pinned by `pin_control_role_bonus`.
pub const CONTROL_ROLE_BONUS_CONTROL_STANDARD: f64 = 0.050;

/// `controlRoleBonus[implementation_guidance]` = 0.000 (guidance is the
/// base). Seed 05. Pinned by `pin_control_role_bonus`.
pub const CONTROL_ROLE_BONUS_IMPLEMENTATION_GUIDANCE: f64 = 0.000;

/// Most words between the two words of a question's word pair in a chunk
/// for the chunk to hold the pair (`pairLexicalGain`; the engine's `phrase`
/// module): "register of information" holds (register, information) with
/// one word between. Measured on the tuning pages with `pairLexicalGain`
/// 1.0: 0 (only adjacent) real-tuning-2 0.766 and real-tuning-4 0.733; 1
/// real-tuning −1 and golden-para −1; 2 and 3 real-tuning-2 0.787 and
/// real-tuning-4 0.800 (`eval/baselines/retrieval-real-7-2026-12-07.md`).
/// Pinned by `pin_pair_lexical_gain`.
pub const PAIR_GAP: usize = 2;

/// Fewest norms a law must have for `headingCommonShare` to apply (a share
/// of a handful of norms says nothing).
pub const HEADING_COMMON_MIN_NORMS: usize = 10;

/// Scope intent (own): how many of a named law's scope-headed norms
/// („Anwendungsbereich“, "Scope", „Verpflichtete“, "important entities")
/// get `topicGain`, the lowest-numbered first — a law states whom it covers
/// up front (Art. 2 and 3 DSGVO: material and territorial scope; Art. 2 and
/// 3 NIS2: scope and the entities), while later headings that name the same
/// words are about something else (Art. 33 NIS2, supervision of important
/// entities; § 41 GwG, feedback to the obliged entities). Pinned by
/// `pin_heading_defaults`.
pub const SCOPE_NORMS_PER_LAW: usize = 2;
