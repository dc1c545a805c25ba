//! Golden-only runs of the pair under its environment (the lockstep against
//! the RTL is in tb/cosim_leg.rs).

use super::*;
use crate::ports::{CycleModel, Stimulus};

/// Run the golden pair under `env` for `cycles`; returns the environment.
pub fn run_golden(mut env: LegEnv, cycles: u64) -> LegEnv {
    let mut pair = Pair::default();
    let mut prev: Option<PairOut> = None;
    for c in 0..cycles {
        let i = env.next(c, prev.as_ref());
        prev = Some(pair.step(&i));
    }
    env
}

#[test]
fn seed8_leg_moves_every_partition_and_raises_both_semaphores() {
    let cycles = 60_000;
    let env = run_golden(
        LegEnv::with_scenario(1, cycles, Some(Scenario::Seed8)).directed_only(),
        cycles,
    );
    let cov: std::collections::HashMap<String, u64> = env.coverage().into_iter().collect();
    assert_eq!(env.failure(), None);
    assert_eq!(cov["scen_seed8"], 1, "{cov:?}");
    assert!(env.final_checked());
    // independent cross-check: B's partitions hold A's preloaded bytes
    let a0 = LegEnv::with_scenario(1, cycles, Some(Scenario::Seed8));
    assert!(
        env.observed_sbuf(1) == a0.expected_sbuf(0),
        "B holds A's bytes"
    );
    assert!(env.observed_sbuf(0) == a0.expected_sbuf(0), "A unchanged");
    assert_eq!(env.observed_sems(0)[12], 4);
    assert_eq!(env.observed_sems(1)[20], 4);
}

#[test]
fn every_scenario_completes_on_the_golden_pair() {
    let cycles = 400_000;
    let env = run_golden(LegEnv::with_scenario(2, cycles, None), cycles);
    let cov: std::collections::HashMap<String, u64> = env.coverage().into_iter().collect();
    assert_eq!(env.failure(), None, "{cov:?}");
    for (n, _) in SCENARIOS {
        assert!(cov[&format!("scen_{n}")] > 0, "scenario {n}: {cov:?}");
    }
}
