import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scripts/code-pages` (run by `make release`, `make install` and bench/peers) leaves an
/// executable's code in 2 MB pages of the page cache, so that a mapping at a matching address
/// maps each 2 MB whole (`FilePmdMapped`), as every start of the release binary does.
@Suite("Code in 2 MB pages of the page cache")
struct CodePagesTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    static let huge = 2 << 20

    /// Whether this kernel gives huge pages to a mapping that asks (`madvise` or `always`).
    static var kernelOffersHugePages: Bool {
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        return mode.contains("[always]") || mode.contains("[madvise]")
    }

    /// An ELF header and one executable segment of `code` bytes at 0x400000 from offset 0.
    static func executable(code: Int, misaligned: Bool = false) -> [UInt8] {
        var bytes = [UInt8](repeating: 0x90, count: code)
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { bytes[offset + i] = byte } }
        }
        bytes.replaceSubrange(0..<16, with: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        put(UInt16(2), at: 16); put(UInt16(62), at: 18); put(UInt32(1), at: 20)
        put(UInt64(0x400000), at: 24); put(UInt64(64), at: 32); put(UInt64(0), at: 40)
        put(UInt32(0), at: 48); put(UInt16(64), at: 52); put(UInt16(56), at: 54); put(UInt16(1), at: 56)
        put(UInt16(0), at: 58); put(UInt16(0), at: 60); put(UInt16(0), at: 62)
        // The program header: PT_LOAD, R+X, offset 0, at 0x400000 (or 4 KB off).
        put(UInt32(1), at: 64); put(UInt32(5), at: 68); put(UInt64(0), at: 72)
        put(UInt64(misaligned ? 0x401000 : 0x400000), at: 80); put(UInt64(0x400000), at: 88)
        put(UInt64(code), at: 96); put(UInt64(code), at: 104); put(UInt64(0x1000), at: 112)
        return bytes
    }

    func codePages(_ path: String) throws -> ShellCommand.Result {
        try ShellCommand.run("'\(PackageRoot.path)/scripts/code-pages' '\(path)'", environment: TestEnvironment(home: home),
                             directory: home.root, timeout: 120)
    }

    /// Maps `path` read-only at a 2 MB boundary, reads a byte of each 2 MB, and returns the
    /// kilobytes of the mapping the kernel maps in whole 2 MB pages.
    static func wholeHugeKilobytes(_ path: String, bytes: Int) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let reserved = mmap(nil, bytes + huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), reserved != MAP_FAILED
        else { return nil }
        defer { munmap(reserved, bytes + huge) }
        let aligned = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: reserved) + huge - 1) & ~(huge - 1))!
        guard let code = mmap(aligned, bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, descriptor, 0), code != MAP_FAILED else { return nil }
        var sum = 0
        for offset in stride(from: 0, to: bytes, by: huge) { sum &+= Int(code.load(fromByteOffset: offset, as: UInt8.self)) }
        _ = sum
        let start = String(Int(bitPattern: code), radix: 16)
        guard let smaps = readWhole("/proc/self/smaps") else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), !line.hasPrefix(" "), line[..<dash].allSatisfy(\.isHexDigit) {
                inside = line[..<dash] == start
            } else if inside, line.hasPrefix("FilePmdMapped:") {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
    }

    static func writeInSmallPieces(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            let written = bytes[start..<min(start + 4096, bytes.count)].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            try #require(written == min(4096, bytes.count - start))
        }
    }

    /// A /proc file, read to its end (its size says 0).
    static func readWhole(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a file's code is mapped in whole 2 MB pages after code-pages, and was not before")
    func codeInHugePages() throws {
        try #require(Self.kernelOffersHugePages, "transparent huge pages are off on this machine")
        let path = home.root + "/program"
        let bytes = 2 * Self.huge
        // Written 4 KB at a time (as cp and linkers write), its pages are the writes' small ones.
        try Self.writeInSmallPieces(Self.executable(code: bytes), to: path)
        #expect(Self.wholeHugeKilobytes(path, bytes: bytes) == 0)
        let result = try codePages(path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.wholeHugeKilobytes(path, bytes: bytes) == bytes / 1024)
    }

    @Test("code whose address and offset differ within 2 MB is left alone; a file that is not ELF is an error")
    func misalignedAndInvalid() throws {
        let misaligned = home.root + "/misaligned"
        try Self.writeInSmallPieces(Self.executable(code: 2 * Self.huge, misaligned: true), to: misaligned)
        let left = try codePages(misaligned)
        #expect(left.status == 0 && left.stderr.isEmpty)
        #expect(Self.wholeHugeKilobytes(misaligned, bytes: 2 * Self.huge) == 0)
        let text = home.root + "/notes.txt"
        try home.write("not a program\n", to: "notes.txt")
        let refused = try codePages(text)
        #expect(refused.status == 1)
        #expect(refused.stderr == "code-pages: \(text) is not a 64-bit ELF file\n")
    }
}
