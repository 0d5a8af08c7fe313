import CLibEdit
import CShims

extension LineEditor {
    /// Ctrl-X Ctrl-E: the line (or, when it is empty, the last command) goes to the user's
    /// editor with the terminal as it was before the prompt; the line is then ended, empty,
    /// and `readLine` returns what was saved, for the shell to run.
    func editInEditor() -> UInt8 {
        let (before, after) = currentLine()
        let text = before + after
        writeOut(moveBelowInput() + "\r\n")
        flushOutput()
        almanac_el_set_int(editLine, EL_PREP_TERM, 0)
        edited = ExternalEditor.edit(text.isEmpty ? store.entries.last ?? "" : text)
        almanac_el_set_int(editLine, EL_PREP_TERM, 1)
        // The old line is left as it was typed; the commands are shown as they run.
        replaceLine(with: "")
        return UInt8(CC_NEWLINE)
    }
}
