import AlmanacCore

/// The bar a waiting command draws on standard error while a dataset loads:
/// `stations  42% ▕██████▎         ▏ 1.4 MB of 3.4 MB · 12.3 MB/s · about 1 s left`.
///
/// Drawn only on a terminal, only once the load has taken 200 ms, at most 20 times a second;
/// always erased before anything else is printed.
final class ProgressBar {
    private let name: String
    private var lastDraw = -1.0
    private(set) var isVisible = false
    static let delay = 0.2
    static let interval = 0.05

    init(name: String) { self.name = name }

    func update(_ progress: LoadProgress.Snapshot, width: Int) {
        guard progress.elapsed >= Self.delay, progress.elapsed - lastDraw >= Self.interval else { return }
        lastDraw = progress.elapsed
        FileDescriptorWriter.write("\r\u{1B}[K" + Self.line(name: name, progress, width: width), to: 2)
        isVisible = true
    }

    func clear() {
        guard isVisible else { return }
        FileDescriptorWriter.write("\r\u{1B}[K", to: 2)
        isVisible = false
    }

    static func line(name: String, _ progress: LoadProgress.Snapshot, width: Int) -> String {
        var parts: [String] = []
        let fraction = progress.fraction
        if progress.countsRecords {
            parts.append("\(progress.recordsDone.grouped) of \(progress.recordsTotal.grouped) records")
            if progress.elapsed > 0 { parts.append("\(Int(Double(progress.recordsDone) / progress.elapsed)) records/s") }
        } else {
            let total = progress.bytesTotal > 0 ? " of " + ByteCount.text(progress.bytesTotal) : ""
            parts.append(ByteCount.text(progress.bytesDone) + total)
            if progress.elapsed > 0 { parts.append(ByteCount.text(Int(Double(progress.bytesDone) / progress.elapsed)) + "/s") }
        }
        if let fraction, fraction > 0.02, fraction < 0.99, progress.elapsed > 0.5 {
            let remaining = progress.elapsed / fraction - progress.elapsed
            if remaining >= 0.5 { parts.append("about \(max(1, Int(remaining.rounded()))) s left") }
        }
        let percent = fraction.map { String(Int(($0 * 100).rounded(.down))).leftPadded(3) + "%" } ?? " ..."
        let barWidth = max(10, min(30, width - name.count - 60))
        let bar = fraction.map { Self.bar($0, width: barWidth) } ?? String(repeating: "·", count: barWidth)
        let line = "\(name) \(percent) ▕\(bar)▏ " + parts.joined(separator: " · ")
        return TextWidth.truncate(line, to: max(10, width - 1))
    }

    /// Eighth-block characters for a smooth bar.
    static func bar(_ fraction: Double, width: Int) -> String {
        let eighths = Int((fraction * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        let partial = eighths % 8
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var text = String(repeating: "█", count: min(full, width))
        if full < width { text += blocks[partial] + String(repeating: " ", count: width - full - (partial > 0 ? 1 : 0)) }
        return text
    }
}

/// Sizes as people read them: `3.4 MB`.
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return (value < 10 ? NumberFormat.fixed(value, decimals: 1) : String(Int(value.rounded()))) + " " + units[unit]
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// Durations as people read them: `4 ms`, `0.12 s`, `2.3 s`.
enum Duration {
    static func text(_ seconds: Double) -> String {
        if seconds < 0.1 { return "\(max(0, Int((seconds * 1000).rounded()))) ms" }
        return NumberFormat.fixed(seconds, decimals: seconds < 10 ? 2 : 1) + " s"
    }
}
