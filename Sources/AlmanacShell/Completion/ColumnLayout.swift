/// Candidates listed in columns across the terminal, down then across like `ls`.
public enum ColumnLayout {
    public static func render(_ items: [String], width: Int) -> String {
        let shown = items.map { SafeText.escape($0) }
        guard !shown.isEmpty else { return "" }
        let cell = (shown.map { TextWidth.of($0) }.max() ?? 0) + 2
        let columns = max(1, min(shown.count, max(width, cell) / cell))
        let rows = (shown.count + columns - 1) / columns
        var lines: [String] = []
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < shown.count else { break }
                let isLast = column == columns - 1 || index + rows >= shown.count
                line += isLast ? shown[index] : TextWidth.pad(shown[index], to: cell)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
