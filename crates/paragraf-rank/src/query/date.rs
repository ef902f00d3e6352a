//! As-of dates in a question: „Stand 1. Januar 2018“, "until 2020", a full
//! date by itself.

use super::DateRange;

/// The ISO day after `date` (`YYYY-MM-DD`); `None` when it is not such a date.
pub(crate) fn next_iso_day(date: &str) -> Option<String> {
    let mut it = date.split('-');
    let y: u32 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = it.next()?.parse().ok()?;
    if it.next().is_some() || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(next_day(y, m, d))
}

fn is_year(t: &str) -> Option<u32> {
    if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
        let y: u32 = t.parse().ok()?;
        (1900..=2099).contains(&y).then_some(y)
    } else {
        None
    }
}

fn small_num(t: &str, max: u32) -> Option<u32> {
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: u32 = t.parse().ok()?;
    (1..=max).contains(&v).then_some(v)
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn iso(y: u32, m: u32, d: u32) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

fn next_day(y: u32, m: u32, d: u32) -> String {
    if d < days_in_month(y, m) {
        iso(y, m, d + 1)
    } else if m < 12 {
        iso(y, m + 1, 1)
    } else {
        iso(y + 1, 1, 1)
    }
}

/// Prepositions that make a following year/date an as-of date.
const DATE_PREPOSITIONS: &[&str] = &[
    "bis", "vor", "stand", "von", "jahr", "jahre", "in", "am", "zum", "seit", "ab", "until",
    "before", "of",
];

/// Find `[preposition] (dd mm yyyy | yyyy [mm dd] | yyyy)` in the tokens.
pub(super) fn parse_as_of_date(toks: &[String]) -> Option<(DateRange, String)> {
    for (i, t) in toks.iter().enumerate() {
        let Some(y) = is_year(t) else { continue };
        // dd.mm.yyyy
        let dm = if i >= 2 {
            match (small_num(&toks[i - 2], 31), small_num(&toks[i - 1], 12)) {
                (Some(d), Some(m)) if d <= days_in_month(y, m) => Some((d, m, i - 2)),
                _ => None,
            }
        } else {
            None
        };
        // yyyy-mm-dd
        let iso_md = match (toks.get(i + 1), toks.get(i + 2)) {
            (Some(a), Some(b)) if a.len() == 2 && b.len() == 2 => {
                match (small_num(a, 12), small_num(b, 31)) {
                    (Some(m), Some(d)) if d <= days_in_month(y, m) => Some((d, m)),
                    _ => None,
                }
            }
            _ => None,
        };
        let start = dm.map(|x| x.2).unwrap_or(i);
        let prep = if start > 0 {
            toks[start - 1].as_str()
        } else {
            ""
        };
        let has_prep = DATE_PREPOSITIONS.contains(&prep);
        let (day, month) = match (dm, iso_md) {
            (Some((d, m, _)), _) => (Some(d), Some(m)),
            (None, Some((d, m))) => (Some(d), Some(m)),
            _ => (None, None),
        };
        // A bare year without preposition (e.g. `2016/679`) is no as-of date;
        // a full date is one by itself.
        if !has_prep && day.is_none() {
            continue;
        }
        let range = match (day, month) {
            (Some(d), Some(m)) => DateRange {
                from: iso(y, m, d),
                until: next_day(y, m, d),
            },
            _ => match prep {
                "bis" | "until" => DateRange {
                    from: iso(y, 1, 1),
                    until: iso(y, 1, 2),
                },
                "vor" | "before" => DateRange {
                    from: iso(y.saturating_sub(1), 12, 31),
                    until: iso(y, 1, 1),
                },
                _ => DateRange {
                    from: iso(y, 1, 1),
                    until: iso(y + 1, 1, 1),
                },
            },
        };
        let matched = toks[start.saturating_sub(usize::from(has_prep))..=i].join(" ");
        return Some((range, matched));
    }
    None
}
