import CGSL

/// The means of several samples, each bit for bit what `gsl_stats_mean` gives, computed side by side.
///
/// GSL's mean is a running mean in `long double`: `m += (x[i] − m) / (i + 1)`, one x87 division after
/// another, each waiting for the last (~25 cycles a value). A summary takes the mean of the window's waits,
/// of the assignment times and of every zone's waits: on megacity ~6 M values, 51 ms after the loop (perf).
/// Here four samples are run at once, their chains interleaved, so the divisions overlap; each chain does
/// exactly GSL's operations in the same order and precision, so each mean is the same `Double`
/// (`SampleMeansTests` compares them with GSL's on samples of every length up to a few thousand).
///
/// Where `long double` is not x87's 80-bit format (not x86-64), each mean is GSL's own call.
enum SampleMeans {
    /// `gsl_stats_mean` of each sample (0 for an empty one), in order.
    static func of(_ samples: [[Double]]) -> [Double] {
        #if arch(x86_64)
        return interleaved(samples)
        #else
        return samples.map { sample in sample.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) } }
        #endif
    }

    #if arch(x86_64)
    /// One sample's chain: which sample, how far it has got and its running mean.
    private struct Chain {
        var sample = -1
        var next = 0
        var mean: Float80 = 0
    }

    /// Four chains at a time: each step advances every busy chain by as many values as the shortest has left,
    /// then the chains that ended take the next samples. The last samples, fewer than four, finish alone.
    private static func interleaved(_ samples: [[Double]]) -> [Double] {
        var means = [Double](repeating: 0, count: samples.count)
        var waiting = samples.indices.filter { !samples[$0].isEmpty }.makeIterator()
        var a = Chain(), b = Chain(), c = Chain(), d = Chain()
        func refill(_ chain: inout Chain) {
            if chain.sample >= 0 {
                guard chain.next == samples[chain.sample].count else { return }
                means[chain.sample] = Double(chain.mean)
            }
            chain = Chain()
            if let sample = waiting.next() { chain.sample = sample }
        }
        while true {
            refill(&a); refill(&b); refill(&c); refill(&d)
            guard a.sample >= 0, b.sample >= 0, c.sample >= 0, d.sample >= 0 else { break }
            let steps = min(samples[a.sample].count - a.next, samples[b.sample].count - b.next,
                            samples[c.sample].count - c.next, samples[d.sample].count - d.next)
            samples[a.sample].withUnsafeBufferPointer { xa in
                samples[b.sample].withUnsafeBufferPointer { xb in
                    samples[c.sample].withUnsafeBufferPointer { xc in
                        samples[d.sample].withUnsafeBufferPointer { xd in
                            var ma = a.mean, mb = b.mean, mc = c.mean, md = d.mean
                            for step in 0 ..< steps {
                                ma += (Float80(xa[a.next + step]) - ma) / Float80(a.next + step + 1)
                                mb += (Float80(xb[b.next + step]) - mb) / Float80(b.next + step + 1)
                                mc += (Float80(xc[c.next + step]) - mc) / Float80(c.next + step + 1)
                                md += (Float80(xd[d.next + step]) - md) / Float80(d.next + step + 1)
                            }
                            a.mean = ma; b.mean = mb; c.mean = mc; d.mean = md
                        }
                    }
                }
            }
            a.next += steps; b.next += steps; c.next += steps; d.next += steps
        }
        for chain in [a, b, c, d] where chain.sample >= 0 { means[chain.sample] = finish(chain, samples[chain.sample]) }
        while let sample = waiting.next() { means[sample] = finish(Chain(sample: sample), samples[sample]) }
        return means
    }

    /// The rest of one chain, alone.
    private static func finish(_ chain: Chain, _ sample: [Double]) -> Double {
        var mean = chain.mean
        for i in chain.next ..< sample.count { mean += (Float80(sample[i]) - mean) / Float80(i + 1) }
        return Double(mean)
    }
    #endif
}
