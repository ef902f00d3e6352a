//! A small JSON Schema checker for the subset the OpenAPI document uses:
//! `$ref` (local), `type` (string or list), `enum`, `properties`, `required`,
//! `additionalProperties` (bool or schema), `items`, `oneOf`, `minimum`,
//! `minLength`, `minItems`. Enough to check examples and real responses.

use serde_json::Value;

pub fn validate(root: &Value, schema: &Value, value: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let target = r
            .strip_prefix("#/")
            .ok_or_else(|| format!("{path}: non-local $ref {r}"))?
            .split('/')
            .try_fold(root, |v, seg| v.get(seg))
            .ok_or_else(|| format!("{path}: dangling $ref {r}"))?;
        return validate(root, target, value, path);
    }
    if let Some(alts) = schema.get("oneOf").and_then(Value::as_array) {
        let ok = alts
            .iter()
            .filter(|s| validate(root, s, value, path).is_ok())
            .count();
        if ok != 1 {
            return Err(format!("{path}: {ok} oneOf alternatives match {value}"));
        }
        return Ok(());
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => return Err(format!("{path}: bad type keyword")),
        };
        let matches = types.iter().any(|t| match *t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_u64() || value.is_i64(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => false,
        });
        if !matches {
            return Err(format!("{path}: expected {types:?}, got {value}"));
        }
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        if !e.contains(value) {
            return Err(format!("{path}: {value} not in enum {e:?}"));
        }
    }
    if let (Some(min), Some(v)) = (
        schema.get("minimum").and_then(Value::as_f64),
        value.as_f64(),
    ) {
        if v < min {
            return Err(format!("{path}: {v} < minimum {min}"));
        }
    }
    if let (Some(min), Some(s)) = (
        schema.get("minLength").and_then(Value::as_u64),
        value.as_str(),
    ) {
        if (s.chars().count() as u64) < min {
            return Err(format!("{path}: shorter than {min}"));
        }
    }
    if let Value::Array(items) = value {
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if (items.len() as u64) < min {
                return Err(format!("{path}: fewer than {min} items"));
            }
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, it) in items.iter().enumerate() {
                validate(root, item_schema, it, &format!("{path}[{i}]"))?;
            }
        }
    }
    if let Value::Object(map) = value {
        let props = schema.get("properties").and_then(Value::as_object);
        if let Some(req) = schema.get("required").and_then(Value::as_array) {
            for r in req.iter().filter_map(Value::as_str) {
                if !map.contains_key(r) {
                    return Err(format!("{path}: missing required `{r}`"));
                }
            }
        }
        for (k, v) in map {
            let sub = format!("{path}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(root, s, v, &sub)?,
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        return Err(format!("{path}: property `{k}` not in schema"))
                    }
                    Some(s @ Value::Object(_)) => validate(root, s, v, &sub)?,
                    _ => {}
                },
            }
        }
    }
    Ok(())
}

/// Validate `value` against `#/components/schemas/<name>`.
pub fn validate_named(root: &Value, name: &str, value: &Value) -> Result<(), String> {
    let schema = root
        .pointer(&format!("/components/schemas/{name}"))
        .ok_or_else(|| format!("no schema {name}"))?;
    validate(root, schema, value, name)
}
