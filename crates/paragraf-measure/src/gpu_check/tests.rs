//! Tests of `gpu_check`.

use super::*;

#[test]
fn the_decoder_ratio_compares_shares_of_each_sides_bound() {
    // a bf16 peer reading 1 GB per token at 4.8 TB/s: bound 4,800 tok/s;
    // at 2,400 tok/s it reaches half of it; ours at 0.6 of its own
    // bound is 1.2× the peer's share, whatever its tok/s
    let (peer, ratio) = decode_shares(Some(0.6), Some(2400.0), Some(1e9), Some(4.8));
    assert!((peer.unwrap() - 0.5).abs() < 1e-12);
    assert!((ratio.unwrap() - 1.2).abs() < 1e-12);
    // no weight bytes from the peer: no share, no ratio
    assert_eq!(
        decode_shares(Some(0.6), Some(2400.0), None, Some(4.8)),
        (None, None)
    );
}

#[test]
fn the_full_plan_has_the_real_shapes_and_the_tiny_one_small_ones() {
    let full = Plan::new(DeviceChoice::Cuda(0), false, false);
    assert_eq!(full.encoder.config.hidden_size, 1024);
    assert_eq!(full.encoder.config.num_hidden_layers, 24);
    assert_eq!(full.encoder_dtype, "f16");
    assert_eq!(full.decoders[1].shape.hidden, 3584);
    assert!(!full.decoders[1].shape.tied);
    assert_eq!(full.parity_decoder.shape.hidden, 896);
    let tiny = Plan::new(DeviceChoice::Cpu, true, true);
    assert!(tiny.encoder.config.hidden_size <= 64);
    assert_eq!(tiny.encoder_dtype, "f32");
    // the tiny e2e embedder covers the real tokenizer's vocabulary
    assert_eq!(
        tiny.e2e_embedder.config.vocab_size,
        EncoderConfig::xlm_roberta_large().vocab_size
    );
}
