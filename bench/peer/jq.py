"""jq: the tool most people reach for first."""

from peer import Command, Peer, version_of

LOAD = '[.citiesFrom[], .citiesTo[] | .stations[].stationId] | "\\(length) \\(unique | length)"'


class JQ(Peer):
    name = "jq"

    def versions(self):
        return {"jq": version_of(["jq", "--version"])}

    def loads(self, file):
        return {"jq": Command(["jq", "-r", LOAD, file["path"]])}


PEER = JQ()
