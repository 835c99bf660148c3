//! libFuzzer target: see `agentlines_fuzz::api_call`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentlines_fuzz::api_call(data));
