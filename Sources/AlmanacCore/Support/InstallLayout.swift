#if canImport(Glibc)
import Glibc
#endif

/// Where an installed almanac keeps its parts, found from the binary's real path (so a
/// symlink to it in another `bin` works): `PREFIX/bin/almanac`,
/// `PREFIX/libexec/almanac/almanac-fetch`, `PREFIX/share/almanac/data`. `make install` puts
/// them there; in a build folder none of them exists and the checkout's own are used.
///
/// Read with readlink and byte arithmetic, not FileManager and NSString: those started
/// CoreFoundation at every start (a tenth of `almanac -c quit`'s page faults).
public enum InstallLayout {
    /// The folder of the running executable, symlinks resolved (the kernel's /proc/self/exe).
    public static let executableFolder: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = length > 0
            ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments.first ?? "."
        return parentFolder(of: executable)
    }()

    /// The prefix the executable was installed into: the folder above its `bin`.
    public static var prefix: String { parentFolder(of: executableFolder) }

    /// `path` without its last part, as NSString's deletingLastPathComponent: `/a/b/c` → `/a/b`,
    /// `/a` → `/`, `a` → ``, trailing slashes ignored.
    static func parentFolder(of path: String) -> String {
        let slash = UInt8(ascii: "/")
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        guard let last = bytes.lastIndex(of: slash) else { return "" }
        var end = last
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The bundled datasets of an install.
    public static var dataFolder: String { prefix + "/share/almanac/data" }

    /// The fetch helper of an install.
    public static var helper: String { prefix + "/libexec/almanac/almanac-fetch" }
}
