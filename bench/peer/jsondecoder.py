"""Swift's JSONDecoder into Codable structs, what a Swift programmer writes first
(almanac-bench --decode-once: the same file, a fresh process)."""

import json

from peer import Command, Peer


def decoder_report(text):
    return {"distinct": json.loads(text.strip().splitlines()[-1])["records"]}


class JSONDecoderPeer(Peer):
    name = "Swift JSONDecoder"

    def install(self, context):
        self.bench = context.bench

    def loads(self, file):
        return {"Swift JSONDecoder": Command([self.bench, "--decode-once", file["path"]], decoder_report)}


PEER = JSONDecoderPeer()
