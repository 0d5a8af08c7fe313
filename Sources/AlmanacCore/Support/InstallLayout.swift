import Foundation

/// Where an installed almanac keeps its parts, found from the binary's real path (so a
/// symlink to it in another `bin` works): `PREFIX/bin/almanac`,
/// `PREFIX/libexec/almanac/almanac-fetch`, `PREFIX/share/almanac/data`. `make install` puts
/// them there; in a build folder none of them exists and the checkout's own are used.
public enum InstallLayout {
    /// The folder of the running executable, symlinks resolved (the kernel's /proc/self/exe).
    public static let executableFolder: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "."
        return (executable as NSString).deletingLastPathComponent
    }()

    /// The prefix the executable was installed into: the folder above its `bin`.
    public static var prefix: String { (executableFolder as NSString).deletingLastPathComponent }

    /// The bundled datasets of an install.
    public static var dataFolder: String { prefix + "/share/almanac/data" }

    /// The fetch helper of an install.
    public static var helper: String { prefix + "/libexec/almanac/almanac-fetch" }
}
