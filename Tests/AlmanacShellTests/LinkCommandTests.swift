import Testing
@testable import AlmanacShell

/// `link` lists the links of the loaded datasets, declares one between any two, and forgets it.
@Suite struct LinkCommandTests {
    @Test("link lists the bundled links both ways, of the datasets that are there")
    func listsBundledLinks() {
        let shell = ShellHarness(load: ["countries", "stations"])
        #expect(shell.run("use countries; count; use stations; count"))
        let listed = shell.output("set format csv; link").out
        #expect(listed == """
            dataset,link,to,how,declared
            countries,borders,countries,borders = countries.alpha3Code,false
            stations,country,countries,countryTitle names the country,false
            countries,stations,stations,stations whose countryTitle leads here,false
            countries,countries,countries,countries whose borders leads here,false

            """)
    }

    @Test("a declared link needs both fields; drop forgets it, and says so when there is none")
    func declaresAndDrops() {
        let shell = ShellHarness(load: ["countries", "planets", "people"])
        let unknown = shell.output("link people.homewrld to planets.url")
        #expect(!unknown.ok && unknown.err.contains("people: unknown field 'homewrld' — did you mean 'homeworld'?"))
        let noDataset = shell.output("link pets.owner to people.url")
        #expect(!noDataset.ok && noDataset.err.contains("unknown dataset 'pets'"))
        #expect(shell.run("link people.name to countries.name"))
        #expect(shell.output("set format csv; link").out.contains("people,name,countries,name = countries.name,true\n"))
        #expect(shell.output("link drop people.name").ok)
        let again = shell.output("link drop people.name")
        #expect(!again.ok && again.err.contains("no declared link people.name"))
    }
}
