// Where the Simulation suite and the gate find the root package's scenarios.

import Foundation

/// The root package's directory, found from this file's path (Benchmarks/Benchmarks/BenchFixtures/…).
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Scenarios/smoke.yaml of the root package.
public let smokeScenarioPath = packageRoot.appendingPathComponent("Scenarios/smoke.yaml").path

/// The overrides of the reservation-heavy smoke run: meeting times 2–2.5 h ahead over 4 h,
/// so most reservations are allocated (D11) and served inside the run.
public let reservationHeavyOverrides = ["demand.reservations.share=0.8", "demand.reservations.lead_max_hours=2.5",
                                        "duration_hours=4"]
