import Foundation

/// The calling thread's name as the kernel shows it (`top -H`, `perf`, `/proc/PID/task/*/comm`), so an operator
/// can tell the simulator's and the service's helper threads from Swift's and NIO's.
///
/// Foundation's `Thread.name` does not reach the kernel on Linux: the helpers showed under their creator's name.
/// The Glibc module does not show `pthread_setname_np`, so the name is written to procfs from the thread itself.
///
/// Invariant: on Linux the calling thread's name becomes `name`'s first 15 bytes (the most the kernel keeps: procfs
/// cuts a longer name), so names here fit in 15; elsewhere `setCurrent` does nothing.
public enum ThreadName {
    /// Names the calling thread.
    public static func setCurrent(_ name: String) {
        #if os(Linux)
        guard let comm = FileHandle(forWritingAtPath: "/proc/thread-self/comm") else { return }
        try? comm.write(contentsOf: Array(name.utf8))
        try? comm.close()
        #endif
    }
}
