import Testing
@testable import AlmanacShell

@Suite struct SettingsTests {
    @Test func setAndShow() throws {
        var settings = Settings(color: false)
        try settings.set("format", to: "JSON")
        #expect(settings.format == .json)
        try settings.set("pagesize", to: "20")
        #expect(settings.pageSize == 20)
        try settings.set("pagesize", to: "auto")
        #expect(settings.pageSize == nil)
        try settings.set("color", to: "on")
        #expect(settings.color)
    }

    @Test func badValuesSayWhatIsExpected() {
        var settings = Settings(color: false)
        #expect(throws: ShellError.self) { try settings.set("format", to: "xml") }
        #expect(throws: ShellError.self) { try settings.set("pagesize", to: "-3") }
        #expect(throws: ShellError.invalid("unknown setting 'fromat' — did you mean 'format'?")) { try settings.set("fromat", to: "json") }
    }
}
