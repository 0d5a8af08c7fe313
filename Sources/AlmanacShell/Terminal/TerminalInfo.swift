#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CShims

/// What the shell knows about where its output goes.
public struct TerminalInfo: Sendable, Equatable {
    /// Whether standard output is a terminal (tables fit its width, colour and paging are allowed).
    public var isTerminal: Bool
    public var columns: Int
    public var rows: Int

    public init(isTerminal: Bool, columns: Int = 80, rows: Int = 24) {
        self.isTerminal = isTerminal
        self.columns = columns
        self.rows = rows
    }

    /// Not a terminal: nothing is cut to a width, nothing is paged.
    public static let pipe = TerminalInfo(isTerminal: false, columns: .max, rows: .max)

    /// Reads standard output's terminal state now (the size changes when the window does).
    public static func current(descriptor: Int32 = 1) -> TerminalInfo {
        guard isatty(descriptor) == 1 else { return .pipe }
        var rows: Int32 = 0
        var columns: Int32 = 0
        if almanac_terminal_size(descriptor, &rows, &columns) == 0 {
            return TerminalInfo(isTerminal: true, columns: Int(columns), rows: Int(max(rows, 2)))
        }
        return TerminalInfo(isTerminal: true)
    }
}
