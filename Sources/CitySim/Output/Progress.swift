import Foundation

/// A one-line progress bar on standard error.
enum Progress {
    static func draw(fraction: Double, label: String) {
        let width = 30, filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))%".utf8))
    }

    static func finish() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}
