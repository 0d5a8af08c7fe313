#if canImport(Glibc)
import Glibc
#endif

/// libedit drops every non-ASCII byte unless the character type is UTF-8, so the shell takes
/// the user's character type and falls back to C.UTF-8 when that is not UTF-8 (C and POSIX
/// are not). Only LC_CTYPE: it is all libedit and wcwidth read, and the other categories
/// cost a file each at every start (13 of `almanac -c quit`'s page faults); the messages
/// stay in English like almanac's own, and numbers keep their point.
public enum LocaleSetup {
    public static func ensureUTF8() {
        setlocale(LC_CTYPE, "")
        if !isUTF8 {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "C.utf8") }
        }
    }

    /// For code that needs UTF-8 character types without taking over the locale: switches
    /// LC_CTYPE only when it is not UTF-8 already.
    static func ensureUTF8IfUnset() {
        if !isUTF8, setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "C.utf8") }
    }

    static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        // Not Foundation's replacingOccurrences: its first call costs a million instructions
        // (NSString bridging), a tenth of the start-up.
        let name = String(cString: codeset).lowercased().filter { $0 != "-" }
        return name == "utf8"
    }
}

import Foundation
