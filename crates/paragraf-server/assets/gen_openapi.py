# Source of assets/openapi.json (hand-written schemas as Python literals).
# Regenerate: python3 crates/paragraf-server/assets/gen_openapi.py
# The server tests check the result covers every route and that examples and
# real responses validate against the schemas.
import json
def ref(n): return {"$ref": f"#/components/schemas/{n}"}
S = lambda **kw: dict(kw)
str_ = {"type": "string"}
nstr = {"type": ["string", "null"]}
num = {"type": "number"}
int0 = {"type": "integer", "minimum": 0}
bool_ = {"type": "boolean"}
arr = lambda x: {"type": "array", "items": x}
def obj(props, required=None, addl=False, desc=None):
    o = {"type": "object", "properties": props, "required": required if required is not None else list(props.keys()), "additionalProperties": addl}
    if desc: o["description"] = desc
    return o
enums = {
 "SourceClass": ["binding_law","recital","official_guidance","control_standard","mapping","unknown"],
 "SourceRole": ["obligation","definition","scope","interpretation","sanction","operational_requirement","procedural_requirement","control_standard","implementation_guidance"],
 "Status": ["in_force","superseded"],
 "Jurisdiction": ["EU","DE","CH","UK","INT"],
 "Lang": ["de","en"],
}
schemas = {k: {"type": "string", "enum": v} for k, v in enums.items()}
schemas["SearchFilters"] = obj({
  "regulations": arr(str_), "jurisdictions": arr(ref("Jurisdiction")), "source_classes": arr(ref("SourceClass")),
  "lang": {"oneOf": [ref("Lang"), {"type": "null"}]}, "include_superseded": {"type": ["boolean","null"]}}, required=[],
  desc="Restrictions of the candidate set; empty list = no restriction.")
schemas["SearchRequest"] = obj({
  "query": {"type": "string", "minLength": 1, "description": "Question, at most max_query_chars characters."},
  "top_k": {"type": ["integer","null"], "minimum": 1, "description": "Results to return, at most max_top_k."},
  "filters": {"oneOf": [ref("SearchFilters"), {"type": "null"}]},
  "explain": {"type": "boolean", "default": False, "description": "Include explanation[] per result."}}, required=["query"])
schemas["AnswerRequest"] = obj({
  "query": {"type": "string", "minLength": 1},
  "top_k": {"type": ["integer","null"], "minimum": 1},
  "model": {"type": ["string","null"], "description": "One of the answer models this server offers (`GET /v1/models`, `serve --models`); null = the default. Any other name is a 422."},
  "max_tokens": {"type": ["integer","null"], "minimum": 1, "description": "Generation budget, at most the server's max_tokens."},
  "filters": {"oneOf": [ref("SearchFilters"), {"type": "null"}], "description": "Restrictions of the candidate set the answer rests on (as for /v1/search)."}}, required=["query"])
schemas["ScoreTerm"] = obj({"name": str_, "constant": num, "value": num, "reason": str_}, desc="One term of the score breakdown.")
schemas["Framework"] = obj({"framework_id": str_, "framework_control_id": str_, "framework_family": str_})
schemas["SearchResult"] = obj({
  "rank": {"type": "integer", "minimum": 1}, "chunk_id": str_, "regulation": str_, "norm": str_, "citation": str_, "title": str_,
  "score": num, "raw_semantic": num, "source_class": ref("SourceClass"), "source_role": ref("SourceRole"),
  "jurisdiction": ref("Jurisdiction"), "status": ref("Status"), "lang": ref("Lang"), "superseded_by": nstr,
  "explanation": arr(ref("ScoreTerm")), "framework": ref("Framework"), "text": str_},
  required=["rank","chunk_id","regulation","norm","citation","title","score","raw_semantic","source_class","source_role","jurisdiction","status","lang","superseded_by","explanation","text"])
schemas["ControlMapping"] = obj({"kind": {"type": "string", "enum": ["iso27001","nist_csf"]}, "framework_id": str_, "control_id": str_, "control_name": str_,
  "regulation": str_, "norms": arr(str_), "coverage": str_, "notes": str_, "source_file": str_})
schemas["EvidenceItem"] = obj({"norm": str_, "regulation": str_, "requirement_summary": str_, "evidence_type": str_, "artifact_name": str_,
  "artifact_example": str_, "description": str_, "retention_period": str_, "auditor_questions": arr(str_), "cross_references": arr(str_), "source_file": str_})
schemas["Assessment"] = obj({"primary_norm": nstr, "primary_regulation": nstr, "connected_norms": arr(str_), "cross_regime": bool_,
  "winner_margin": num, "human_review_flag": bool_,
  "human_review_reasons": dict(arr(str_), description="Why a person should check the result: one plain sentence per condition, in the question's language (`lang`)."),
  "human_review_codes": dict(arr({"type": "string", "enum": ["no_results", "weak_match", "outside_corpus", "near_tie", "cross_regime", "not_binding", "superseded"]}),
    description="The machine-readable form of human_review_reasons, one code per reason in the same order; absent when there is none. no_results, weak_match and outside_corpus: retrieval found nothing relevant (the answer abstains before the model runs)."),
  "score_reasoning": str_,
  "controls": arr(ref("ControlMapping")), "evidence": arr(ref("EvidenceItem")),
  "runner_up": {"type": "string", "description": "The best result of another norm (its citation) when it is close behind the primary norm (winner_margin below the review margin): a near tie to weigh too. Absent otherwise."}},
  required=["primary_norm","primary_regulation","connected_norms","cross_regime","winner_margin","human_review_flag","human_review_reasons","score_reasoning"])
schemas["RemovedCitation"] = obj({"text": str_, "reason": str_})
schemas["Answer"] = obj({"text": str_, "citations": arr(str_), "abstained": bool_, "removed_citations": arr(ref("RemovedCitation")),
  "model": str_, "generated_tokens": int0, "error": str_,
  "abstain_reason": {"type": "string", "enum": ["no_results", "no_binding_source", "not_relevant", "model_declined", "no_supported_statement", "generation_failed"],
    "description": "Why the answer abstained (present exactly when abstained): the first three are decided from retrieval, before the model runs."},
  "extractive": {"type": "boolean", "description": "The text quotes the evidence units (model-free extractive answer, or the model's text held no statement the evidence supports)."},
  "evidence": arr(ref("Evidence")), "review_warning": {"type": "string", "description": "Shown with the answer when the assessment asks for human review; the answer is given all the same."}},
  required=["text","citations","abstained","removed_citations","model","generated_tokens"],
  desc="Grounded answer after citation gating.")
schemas["Evidence"] = obj({"pinpoint": str_, "norm": str_, "regulation": str_, "text": str_, "url": {"type": "string", "description": "Official address of the provision (per-§ page, EUR-Lex article anchor) or else of the act."}, "lang": ref("Lang")},
  required=["pinpoint","norm","regulation","text","lang"], desc="A pinpoint unit the answer rests on (`[n]` of the text = the n-th entry): `§ 38 Abs. 1 Satz 1 BDSG`, its text (an item with its list's lead-in), the official source.")
schemas["Timings"] = {"type": "object", "additionalProperties": num, "description": "Milliseconds per pipeline stage (analyze, embed, dense, lexical, fusion, rank, assess, generate, total)."}
schemas["SearchResponse"] = obj({"query": str_, "results": arr(ref("SearchResult")), "assessment": ref("Assessment"), "answer": ref("Answer"), "timings_ms": ref("Timings"),
  "lang": {"allOf": [ref("Lang")], "description": "Language of the question as the engine read it (the web page follows it)."}},
  required=["query","results","assessment","timings_ms"], desc="The output contract of search and answer.")
schemas["NormMetadata"] = obj({"source_class": ref("SourceClass"), "source_role": ref("SourceRole"), "jurisdiction": ref("Jurisdiction"), "status": ref("Status"),
  "valid_from": nstr, "valid_to": nstr, "superseded_by": nstr, "lang": ref("Lang")})
schemas["LanguageVariant"] = obj({"lang": ref("Lang"), "id": str_})
schemas["NormView"] = obj({"id": str_, "norm_ref": str_, "regulation": str_, "norm": str_, "title": str_, "text": str_, "breadcrumb": arr(str_),
  "metadata": ref("NormMetadata"), "references_out": arr(str_), "references_in": arr(str_), "chunks": arr(str_), "language_variants": arr(ref("LanguageVariant")),
  "url": {"type": "string", "description": "Official address of the provision itself where the official site has one (gesetze-im-internet.de per-§ page, EUR-Lex article anchor), else of the act; absent when the corpus names no official source."}},
  required=["id","norm_ref","regulation","norm","title","text","breadcrumb","metadata","references_out","references_in","chunks","language_variants"])
schemas["ErrorBody"] = obj({"error": obj({"code": str_, "message": str_, "field": nstr})}, desc="Every 4xx/5xx body.")
schemas["SentenceEvent"] = obj({"text": str_}, desc="Data of an SSE `sentence` event: one sentence of the answer after the citation gate (raw model output is never sent).")
schemas["Health"] = obj({"status": {"type": "string", "enum": ["ok"]}})
schemas["Ready"] = obj({"status": {"type": "string", "enum": ["ready","loading"]}, "info": {"type": "object"},
  "limits": obj({"max_query_chars": {"type": "integer", "minimum": 1, "description": "Longest accepted question, in characters."}}, desc="Request limits a client should know before it asks.")},
  required=["status","info"])
schemas["ModelList"] = obj({"object": {"type": "string", "enum": ["list"]}, "data": arr(obj({"id": str_, "object": str_, "created": int0, "owned_by": str_}))})
content_part = obj({"type": str_, "text": str_}, required=["type"], addl=True)
schemas["ChatMessage"] = obj({"role": {"type": "string", "description": "system, user, assistant, …"}, "content": {"oneOf": [str_, arr(content_part), {"type": "null"}]}}, required=["role"], addl=True)
schemas["ChatCompletionRequest"] = obj({"model": {"type": ["string","null"], "description": "`paragraf` = default answer model; other names are passed to the backend."},
  "messages": {"type": "array", "minItems": 1, "items": ref("ChatMessage"), "description": "The last `user` message is the question."},
  "stream": {"type": "boolean", "default": False}, "max_tokens": {"type": ["integer","null"], "minimum": 1}, "max_completion_tokens": {"type": ["integer","null"], "minimum": 1}},
  required=["messages"], addl=True, desc="OpenAI chat request; other OpenAI fields (temperature, top_p, …) are accepted and ignored.")
schemas["ParagrafFields"] = obj({"citations": arr(str_), "removed_citations": arr(ref("RemovedCitation")), "abstained": bool_,
  "assessment": ref("Assessment"), "results": arr(ref("SearchResult")), "timings_ms": ref("Timings")}, desc="Structured grounding of a completion.")
schemas["ChatCompletion"] = obj({"id": str_, "object": {"type": "string", "enum": ["chat.completion"]}, "created": int0, "model": str_,
  "choices": arr(obj({"index": int0, "message": obj({"role": {"type": "string", "enum": ["assistant"]}, "content": str_}), "finish_reason": str_})),
  "usage": obj({"prompt_tokens": int0, "completion_tokens": int0, "total_tokens": int0}), "paragraf": ref("ParagrafFields")})
schemas["ChatCompletionChunk"] = obj({"id": str_, "object": {"type": "string", "enum": ["chat.completion.chunk"]}, "created": int0, "model": str_,
  "choices": arr(obj({"index": int0, "delta": obj({"role": str_, "content": str_}, required=[]), "finish_reason": nstr})),
  "paragraf": ref("ParagrafFields")}, required=["id","object","created","model","choices"],
  desc="One `data:` line of a streamed completion; the last chunk carries `paragraf`; the stream ends with `data: [DONE]`.")

dpo = "Ab wie vielen Mitarbeitern braucht ein Betrieb einen Datenschutzbeauftragten?"
ex_result = {"rank": 1, "chunk_id": "DSGVO/Art.37/Abs.1", "regulation": "DSGVO", "norm": "Art. 37", "citation": "Art. 37 Abs. 1 DSGVO",
  "title": "Benennung eines Datenschutzbeauftragten", "score": 0.72, "raw_semantic": 0.6, "source_class": "binding_law", "source_role": "obligation",
  "jurisdiction": "EU", "status": "in_force", "lang": "de", "superseded_by": None,
  "explanation": [{"name": "rawSemantic", "constant": 0.6, "value": 0.42, "reason": "3 von 5 Suchbegriffen im Text"},
                  {"name": "authorityCoef", "constant": 0.3, "value": 0.3, "reason": "Quellenklasse binding_law"}],
  "text": "Der Verantwortliche und der Auftragsverarbeiter benennen auf jeden Fall einen Datenschutzbeauftragten, wenn …"}
ex_assessment = {"primary_norm": "Art. 37 DSGVO", "primary_regulation": "DSGVO", "connected_norms": ["§ 38 BDSG", "Art. 38 DSGVO"],
  "cross_regime": True, "winner_margin": 0.12, "human_review_flag": True,
  "human_review_reasons": ["Zwei Normen liegen fast gleichauf (Art. 37 DSGVO und § 38 BDSG): Bitte beide prüfen."], "human_review_codes": ["near_tie"],
  "score_reasoning": "Primärnorm Art. 37 DSGVO (DSGVO, verbindliches Recht, Pflicht). Score 0,720: Textähnlichkeit 0,600; Autorität der Quelle +0,300. Vorsprung vor der nächsten Norm (§ 38 BDSG): 0,012. Prüfung durch eine fachkundige Person empfohlen."}
ex_response = {"query": dpo, "results": [ex_result], "assessment": ex_assessment, "timings_ms": {"rank": 1.2, "total": 3.4}, "lang": "de"}
ex_answer_response = dict(ex_response, answer={"text": "Ein Unternehmen muss einen Datenschutzbeauftragten benennen, wenn … (Art. 37 DSGVO).",
  "citations": ["Art. 37 DSGVO"], "abstained": False, "removed_citations": [{"text": "Art. 83 DSGVO", "reason": "nicht unter den gefundenen Normen"}],
  "model": "qwen2.5-1.5b-instruct", "generated_tokens": 57})
ex_norm = {"id": "DSGVO/Art.37/Abs.1", "norm_ref": "Art. 37 DSGVO", "regulation": "DSGVO", "norm": "Art. 37", "title": "Benennung eines Datenschutzbeauftragten",
  "text": "Der Verantwortliche und der Auftragsverarbeiter benennen …", "breadcrumb": ["Kapitel IV", "Abschnitt 4"],
  "metadata": {"source_class": "binding_law", "source_role": "obligation", "jurisdiction": "EU", "status": "in_force", "valid_from": "2018-05-25", "valid_to": None, "superseded_by": None, "lang": "de"},
  "references_out": ["Art. 9 DSGVO"], "references_in": ["§ 38 BDSG"], "chunks": ["DSGVO/Art.37/Abs.1", "DSGVO/Art.37/Abs.5"],
  "language_variants": [{"lang": "en", "id": "DSGVO/Art.37/Abs.1@en"}],
  "url": "https://eur-lex.europa.eu/eli/reg/2016/679/oj"}
ex_error = {"error": {"code": "invalid_field", "message": "`top_k` ist 500; erlaubt sind höchstens 50", "field": "top_k"}}
ex_chat_req = {"model": "paragraf", "messages": [{"role": "user", "content": dpo}], "stream": False}
ex_chat = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "paragraf",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": "Ein Unternehmen muss … (Art. 37 DSGVO).\n\nQuellen:\n- Art. 37 DSGVO"}, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 0, "completion_tokens": 57, "total_tokens": 57},
  "paragraf": {"citations": ["Art. 37 DSGVO"], "removed_citations": [], "abstained": False, "assessment": ex_assessment, "results": [ex_result], "timings_ms": {"total": 800.0}}}
for name, ex in [("SearchRequest", {"query": dpo, "top_k": 5, "explain": True, "filters": {"jurisdictions": ["EU", "DE"]}}),
                 ("AnswerRequest", {"query": dpo, "top_k": 5, "max_tokens": 256}),
                 ("SearchResponse", ex_answer_response), ("NormView", ex_norm), ("ErrorBody", ex_error),
                 ("ChatCompletionRequest", ex_chat_req), ("ChatCompletion", ex_chat), ("SentenceEvent", {"text": "Nach § 38 Abs. 1 Satz 1 BDSG ist ab 20 Personen ein Datenschutzbeauftragter zu benennen [1]."})]:
    schemas[name]["examples"] = [ex]

def err(desc): return {"description": desc, "content": {"application/json": {"schema": ref("ErrorBody")}}}
retry = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}}
rid = {"x-request-id": {"description": "Request id (echoed or generated).", "schema": {"type": "string"}}}
def ok(schema, desc="OK", ctype="application/json"): return {"description": desc, "headers": rid, "content": {ctype: {"schema": schema}}}
std_errs = {"400": err("Malformed JSON."), "401": err("Missing or wrong bearer token (when an API key is configured)."),
            "403": err("Host header names neither localhost, an IP address nor a host allowed with `serve --allow-host` (code `host_not_allowed`)."),
            "408": err("The body did not arrive within body_read_timeout (code `body_timeout`, field `body`); the connection is closed."),
            "413": err("Body larger than max_body_bytes (field `body`)."), "415": err("Content-Type is not application/json."),
            "422": err("Wrong type, unknown or missing field, a limit exceeded, or a `model` the operator does not offer (`serve --models`); `field` names it."), "500": err("Internal error (details only in the server log).")}
sse_desc = ("Server-Sent Events: `event: results` (data: SearchResponse without `answer`, sent at once), then `event: sentence` (data: SentenceEvent) per gated sentence, then `event: final` (data: SearchResponse with `answer`), "
            "or `event: error` (data: ErrorBody) instead of `final`. With `Accept: application/json` the final SearchResponse as one JSON document.")
paths = {
 "/v1/search": {"post": {"operationId": "search", "summary": "Retrieve, rank and assess (no generation).", "security": [{"bearer": []}],
   "requestBody": {"required": True, "content": {"application/json": {"schema": ref("SearchRequest")}}},
   "responses": {"200": ok(ref("SearchResponse")), **std_errs, "503": err("Backend not ready."), "504": err("request_timeout exceeded.")}}},
 "/v1/answer": {"post": {"operationId": "answer", "summary": "Grounded answer, streamed.", "security": [{"bearer": []}],
   "requestBody": {"required": True, "content": {"application/json": {"schema": ref("AnswerRequest")}}},
   "responses": {"200": {"description": sse_desc, "headers": rid, "content": {"text/event-stream": {"schema": {"type": "string"}, "itemSchema": {"oneOf": [ref("SentenceEvent"), ref("SearchResponse"), ref("ErrorBody")]}},
                                                               "application/json": {"schema": ref("SearchResponse")}}},
                 **std_errs, "503": {**err("Answer queue full; retry after Retry-After seconds."), "headers": retry}, "504": err("answer_timeout exceeded (JSON mode).")}}},
 "/v1/norms/{id}": {"get": {"operationId": "norm", "summary": "Norm text, metadata and connected norms.", "security": [{"bearer": []}],
   "parameters": [{"name": "id", "in": "path", "required": True, "description": "Chunk id (`DSGVO/Art.37/Abs.1`, slashes raw or %2F) or norm reference (`Art. 37 DSGVO`).", "schema": {"type": "string"}}],
   "responses": {"200": ok(ref("NormView")), "401": std_errs["401"], "404": err("Unknown id (field `id`)."), "422": err("Invalid id."), "500": std_errs["500"], "504": err("request_timeout exceeded.")}}},
 "/v1/chat/completions": {"post": {"operationId": "chatCompletions", "summary": "OpenAI-compatible chat completion over the grounded pipeline.", "security": [{"bearer": []}],
   "requestBody": {"required": True, "content": {"application/json": {"schema": ref("ChatCompletionRequest")}}},
   "responses": {"200": {"description": "`stream: false`: ChatCompletion. `stream: true`: `data:` lines of ChatCompletionChunk, then `data: [DONE]`.", "headers": rid,
                         "content": {"application/json": {"schema": ref("ChatCompletion")}, "text/event-stream": {"schema": {"type": "string"}, "itemSchema": ref("ChatCompletionChunk")}}},
                 **std_errs, "503": {**err("Answer queue full."), "headers": retry}, "504": err("answer_timeout exceeded.")}}},
 "/v1/models": {"get": {"operationId": "models", "summary": "OpenAI-compatible model list.", "security": [{"bearer": []}],
   "responses": {"200": ok(ref("ModelList")), "401": std_errs["401"], "403": std_errs["403"]}}},
 "/healthz": {"get": {"operationId": "healthz", "summary": "Liveness.", "security": [], "responses": {"200": ok(ref("Health"))}}},
 "/health": {"get": {"operationId": "health", "summary": "Liveness (alias of /healthz, as text-embeddings-inference and llama-server name it).", "security": [], "responses": {"200": ok(ref("Health"))}}},
 "/readyz": {"get": {"operationId": "readyz", "summary": "Readiness: index and models loaded.", "security": [],
   "responses": {"200": ok(ref("Ready")), "503": {"description": "Still loading.", "headers": retry, "content": {"application/json": {"schema": ref("Ready")}}}}}},
 "/metrics": {"get": {"operationId": "metrics", "summary": "Prometheus metrics (text format 0.0.4).", "security": [],
   "responses": {"200": ok({"type": "string"}, ctype="text/plain")}}},
 "/openapi.json": {"get": {"operationId": "openapi", "summary": "This document.", "security": [], "responses": {"200": ok({"type": "object"})}}},
 "/": {"get": {"operationId": "webPage", "summary": "Web page (German UI).", "security": [], "responses": {"200": ok({"type": "string"}, ctype="text/html")}}},
 "/assets/{file}": {"get": {"operationId": "asset", "summary": "Embedded static asset (app.js, style.css).", "security": [],
   "parameters": [{"name": "file", "in": "path", "required": True, "schema": {"type": "string", "enum": ["app.js", "style.css"]}}],
   "responses": {"200": ok({"type": "string"}, ctype="text/plain"), "404": err("Unknown asset.")}}},
}
doc = {"openapi": "3.1.0",
  "info": {"title": "Paragraf API", "version": "0.1.0", "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
           "description": "Grounded answers to German/EU compliance questions: primary norm, connected norms, controls, answer with checked citations. Errors are always `{error:{code,message,field}}`."},
  "servers": [{"url": "/"}],
  "security": [{"bearer": []}],
  "paths": paths,
  "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "Only when the server runs with an API key; applies to /v1/*."}}}}
import os
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'openapi.json'), 'w').write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
