// The simdjson peer of bench/peer/simdjson.py, as issue 15 gives it: parse the whole file,
// walk both city lists, print "entries distinct-ids".
#include <simdjson.h>
#include <cstdio>
#include <unordered_set>
using namespace simdjson;
int main(int argc, char **argv) {
  padded_string json; if (padded_string::load(argv[1]).get(json)) return 1;
  dom::parser parser; dom::element doc; if (parser.parse(json).get(doc)) return 1;
  size_t entries = 0; std::unordered_set<int64_t> ids;
  for (const char *key : {"citiesFrom", "citiesTo"})
    for (dom::element city : doc[key].get_array())
      for (dom::element st : city["stations"].get_array()) { entries++; ids.insert(int64_t(st["stationId"])); }
  printf("%zu %zu\n", entries, ids.size());
}
