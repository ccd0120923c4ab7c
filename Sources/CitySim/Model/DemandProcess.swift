/// Customer arrivals as a non-homogeneous Poisson process whose rate is
/// constant within each hour of the day (the scenario's hourly profile).
///
/// Exact, not thinned: an exponential gap is drawn at the current hour's rate;
/// if it crosses the hour's end, the process restarts at the boundary with the
/// next hour's rate (memorylessness makes this exact).
struct DemandProcess {
    /// Requests per hour for each hour of the day.
    let ratePerHour: [Double]

    /// The expected number of arrivals in `0 ..< horizon` (the integral of the rate), for sizing storage.
    func expectedArrivals(horizon: Double) -> Double {
        var total = 0.0, hour = 0
        while Double(hour) * 3600 < horizon {
            total += ratePerHour[hour % 24] * min(1, (horizon - Double(hour) * 3600) / 3600)
            hour += 1
        }
        return total
    }

    /// The next arrival after `time`, or nil when none comes before `horizon`.
    func nextArrival(after time: Double, horizon: Double, _ random: RandomStream) -> Double? {
        var t = time
        while t < horizon {
            let hour = Int(t / 3600)
            let hourEnd = Double(hour + 1) * 3600
            let rate = ratePerHour[hour % 24] / 3600
            if rate > 0 {
                let candidate = t + random.exponential(mean: 1 / rate)
                if candidate < hourEnd { return candidate < horizon ? candidate : nil }
            }
            t = hourEnd
        }
        return nil
    }
}
