import Foundation
import Testing
@testable import AlmanacCore

/// The install layout is read without Foundation's file manager and NSString (start-up).
@Suite struct InstallLayoutTests {
    @Test func parentFolderIsNSStringsDeletingLastPathComponent() {
        for path in ["/usr/local/bin/almanac", "/usr/local/bin", "/almanac", "/", "almanac", "a/b", "a/b/", "/a//b", "//a", "", "/a/b///"] {
            #expect(InstallLayout.parentFolder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }
}
