import Testing
@testable import CitySim

/// Draws `count` uniforms from `stream`.
private func uniforms(_ stream: RandomStream, _ count: Int = 32) -> [Double] {
    (0..<count).map { _ in stream.uniform() }
}

@Suite struct RandomStreamTests {
    @Test func sameSeedNameAndReplicationGiveTheSameSequence() {
        let first = RandomStream(name: "arrivals", seed: 42, replication: 1)
        let second = RandomStream(name: "arrivals", seed: 42, replication: 1)
        #expect(uniforms(first) == uniforms(second))
        #expect(first.exponential(mean: 5) == second.exponential(mean: 5))
    }

    @Test func derivedSeedIsStableAcrossProcesses() {
        // Pinned values: a change here changes every committed result.
        #expect(SeedDerivation.fnv1a64("") == 0xCBF2_9CE4_8422_2325)
        #expect(SeedDerivation.fnv1a64("a") == 0xAF63_DC4C_8601_EC8C)
        // Computed independently (Python) from the FNV-1a / SplitMix64 definitions.
        #expect(SeedDerivation.streamSeed(scenarioSeed: 42, replication: 0, name: "arrivals") == 0xF640_6249_CAAA_BB89)
        #expect(RandomStream(name: "arrivals", seed: 42, replication: 0).generatorSeed == 0x3CEA_D9C0)
    }

    @Test func differentNamesGiveDifferentSequences() {
        let arrivals = RandomStream(name: "arrivals", seed: 42, replication: 0)
        let places = RandomStream(name: "places", seed: 42, replication: 0)
        #expect(uniforms(arrivals) != uniforms(places))
    }

    @Test func differentReplicationsGiveDifferentSequences() {
        let first = RandomStream(name: "arrivals", seed: 42, replication: 0)
        let second = RandomStream(name: "arrivals", seed: 42, replication: 1)
        #expect(uniforms(first) != uniforms(second))
    }

    @Test func differentScenarioSeedsGiveDifferentSequences() {
        #expect(uniforms(RandomStream(name: "arrivals", seed: 1, replication: 0))
            != uniforms(RandomStream(name: "arrivals", seed: 2, replication: 0)))
    }

    @Test func exponentialTakesTheMean() {
        let stream = RandomStream(name: "rideTimes", seed: 7, replication: 0)
        let draws = 100_000
        let mean = 90.0
        let sum = (0..<draws).reduce(0.0) { total, _ in total + stream.exponential(mean: mean) }
        // Standard error of the mean is 90 / sqrt(1e5) ≈ 0.28 s; allow about 5 of them.
        #expect(abs(sum / Double(draws) - mean) < 1.5)
    }

    @Test func lognormalByMeanAndCVHasThatMean() {
        let stream = RandomStream(name: "rideTimes", seed: 8, replication: 0)
        let draws = 100_000
        let sum = (0..<draws).reduce(0.0) { total, _ in total + stream.lognormal(mean: 600, cv: 0.3) }
        #expect(abs(sum / Double(draws) - 600) < 3)
    }

    @Test func drawsStayInTheirRanges() {
        let stream = RandomStream(name: "places", seed: 9, replication: 0)
        for _ in 0..<10_000 {
            let u = stream.uniform(in: 3..<4)
            #expect(u >= 3 && u < 4)
            let k = stream.uniformInt(below: 7)
            #expect(k >= 0 && k < 7)
            #expect(stream.poisson(mean: 3) >= 0)
            #expect(stream.gamma(shape: 2, scale: 10) > 0)
        }
        #expect(!stream.bernoulli(0) && stream.bernoulli(1))
    }
}

@Suite struct RandomDiscreteDistributionTests {
    @Test func frequenciesMatchWeights() throws {
        let weights = [5.0, 1, 0, 4]
        let distribution = try DiscreteDistribution(weights: weights)
        let stream = RandomStream(name: "places", seed: 3, replication: 0)
        var counts = [Int](repeating: 0, count: weights.count)
        let draws = 100_000
        for _ in 0..<draws { counts[distribution.sample(using: stream)] += 1 }
        #expect(counts[2] == 0)
        for (index, probability) in distribution.probabilities.enumerated() {
            // Binomial standard deviation is at most 0.0016 here; allow about 5 of them.
            #expect(abs(Double(counts[index]) / Double(draws) - probability) < 0.008)
        }
    }

    @Test func badWeightsThrow() {
        #expect(throws: DiscreteDistributionError.noWeights) { try DiscreteDistribution(weights: []) }
        #expect(throws: DiscreteDistributionError.negativeWeight(index: 1, value: -1)) {
            try DiscreteDistribution(weights: [1, -1])
        }
        #expect(throws: DiscreteDistributionError.nonFiniteWeight(index: 0, value: .infinity)) {
            try DiscreteDistribution(weights: [.infinity])
        }
        #expect(throws: DiscreteDistributionError.self) { try DiscreteDistribution(weights: [.nan]) }
        #expect(throws: DiscreteDistributionError.nonPositiveTotal(0)) { try DiscreteDistribution(weights: [0, 0]) }
        #expect(throws: DiscreteDistributionError.nonPositiveTotal(.infinity)) {
            try DiscreteDistribution(weights: [.greatestFiniteMagnitude, .greatestFiniteMagnitude])
        }
    }
}

@Suite struct RandomStreamsTests {
    @Test func eachComponentHasItsOwnStream() {
        let streams = RandomStreams(seed: 42, replication: 0)
        let names = [streams.arrivals, streams.places, streams.driverBehaviour, streams.rideTimes, streams.patience].map(\.name)
        #expect(Set(names).count == 5)
        #expect(uniforms(streams.arrivals) != uniforms(streams.places))
    }

    @Test func aNameAlwaysMapsToTheSameStream() {
        let streams = RandomStreams(seed: 42, replication: 0)
        #expect(streams.stream(named: "arrivals") === streams.arrivals)
        #expect(streams.stream(named: "fuel") === streams.stream(named: "fuel"))
    }

    @Test func namedStreamsMatchStandaloneStreams() {
        let streams = RandomStreams(seed: 42, replication: 2)
        #expect(uniforms(streams.patience) == uniforms(RandomStream(name: "patience", seed: 42, replication: 2)))
    }
}
