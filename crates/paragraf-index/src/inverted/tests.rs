//! Tests of `inverted`.

use super::*;

#[test]
fn norm_code_matches_lucene_table() {
    // Spot values of Lucene's SmallFloat.byte4ToInt table.
    assert_eq!(norm_decode(0), 0);
    assert_eq!(norm_decode(23), 23);
    assert_eq!(norm_decode(24), 24);
    assert_eq!(norm_decode(40), 40);
    assert_eq!(norm_decode(41), 42);
    assert_eq!(norm_decode(255), 2_013_265_944);
    for len in [0u32, 5, 24, 41, 100, 1000, 123_456] {
        let c = norm_encode(len);
        assert!(norm_decode(c) <= len);
        if c < 255 {
            assert!(norm_decode(c + 1) > len);
        }
    }
}
