//! Natural order of norm labels: `§ 2` < `§ 10` < `§ 10a`, `Anhang IV` <
//! `Anhang V` < `Anhang IX`; articles and sections before annexes, annexes
//! before recitals, then controls.

use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Tok {
    Num(u64),
    Text(String),
}

fn roman(s: &str) -> Option<u64> {
    if s.is_empty() || !s.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C')) {
        return None;
    }
    let val = |c| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        _ => 100,
    };
    let cs: Vec<u64> = s.chars().map(val).collect();
    let mut total = 0u64;
    for i in 0..cs.len() {
        if i + 1 < cs.len() && cs[i] < cs[i + 1] {
            total = total.saturating_sub(cs[i]);
        } else {
            total += cs[i];
        }
    }
    Some(total)
}

fn group(label: &str) -> u8 {
    if label.starts_with('§') || label.starts_with("Art") {
        0
    } else if label.starts_with("Anhang")
        || label.starts_with("Anlage")
        || label.starts_with("Annex")
    {
        1
    } else if label.starts_with("ErwG") {
        2
    } else {
        3
    }
}

/// Sort key of a norm label.
pub fn norm_key(label: &str) -> (u8, Vec<(u8, u64, String)>) {
    let mut toks = Vec::new();
    let annexish = group(label) == 1;
    let mut cur = String::new();
    let mut digits = false;
    let flush = |cur: &mut String, digits: bool, toks: &mut Vec<Tok>| {
        if cur.is_empty() {
            return;
        }
        if digits {
            toks.push(Tok::Num(cur.parse().unwrap_or(u64::MAX)));
        } else if let Some(r) = roman(cur).filter(|_| annexish) {
            toks.push(Tok::Num(r));
        } else {
            toks.push(Tok::Text(cur.clone()));
        }
        cur.clear();
    };
    for c in label.chars() {
        if c.is_ascii_digit() {
            if !digits {
                flush(&mut cur, digits, &mut toks);
                digits = true;
            }
            cur.push(c);
        } else if c.is_alphanumeric() {
            if digits {
                flush(&mut cur, digits, &mut toks);
                digits = false;
            }
            cur.push(c);
        } else {
            flush(&mut cur, digits, &mut toks);
            digits = false;
        }
    }
    flush(&mut cur, digits, &mut toks);
    let key = toks
        .into_iter()
        .map(|t| match t {
            Tok::Num(n) => (0u8, n, String::new()),
            Tok::Text(s) => (1u8, 0, s),
        })
        .collect();
    (group(label), key)
}

/// Compare two norm labels in natural order.
pub fn cmp_norms(a: &str, b: &str) -> Ordering {
    norm_key(a).cmp(&norm_key(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut v = vec![
            "§ 10",
            "§ 2",
            "Anhang IX",
            "ErwG 3",
            "§ 10a",
            "Anhang V",
            "Anhang IV",
        ];
        v.sort_by(|a, b| cmp_norms(a, b));
        assert_eq!(
            v,
            vec![
                "§ 2",
                "§ 10",
                "§ 10a",
                "Anhang IV",
                "Anhang V",
                "Anhang IX",
                "ErwG 3"
            ]
        );
    }
}
