import Synchronization

/// A rate limiter: each key (an account's email, a client's IP) holds a bucket
/// of `capacity` tokens that refills at `refillPerSecond`; an attempt takes one.
///
/// ```swift
/// let limiter = TokenBucket(capacity: 5, refillPerSecond: 5.0 / 60)   // 5 logins, then 1 every 12 s
/// guard limiter.take("ip:10.0.0.1", now: clock.now()) else { /* 429 */ }
/// ```
public final class TokenBucket: Sendable {
    private struct Bucket { var tokens: Double; var updated: Double }
    public let capacity: Double
    public let refillPerSecond: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(capacity: Double, refillPerSecond: Double) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
    }

    /// Takes one token from the key's bucket.
    /// - Returns: false when the bucket is empty (the attempt is refused and costs nothing).
    public func take(_ key: String, now: Double) -> Bool {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.updated) * refillPerSecond)
            bucket.updated = now
            let granted = bucket.tokens >= 1
            if granted { bucket.tokens -= 1 }
            buckets[key] = bucket.tokens >= capacity ? nil : bucket
            if buckets.count > 100_000 { buckets.removeAll() }  // bounded memory under a flood of keys
            return granted
        }
    }

    /// Seconds until the key's bucket holds a token again.
    public func retryAfter(_ key: String, now: Double) -> Double {
        buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return 0 }
            let tokens = bucket.tokens + max(0, now - bucket.updated) * refillPerSecond
            return tokens >= 1 ? 0 : (1 - tokens) / refillPerSecond
        }
    }
}
