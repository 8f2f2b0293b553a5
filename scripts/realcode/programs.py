"""The programs of scripts/realcode-run: where each one's sources come from,
how it is compiled, which executables it links and what workload runs them.

A Program is plain data once prepared: `units` (every C file that is
instrumented and compiled, all with `cflags`), `exes` (executable name ->
the units it links, plus `libs`), and `steps` (the workload: commands whose
stdout, stderr and exit status must be the same bytes in every build).  A
step runs in a directory of its own build's, where each executable is
reachable as ./NAME (some tests, like libiberty's test-pexecute, run
themselves that way).  Step arguments and stdin may name files of the
cache (absolute paths, the same for every build) or, as "@STEP", the
stdout of an earlier step of the same build.
"""
import glob
import os
import re
from dataclasses import dataclass, field

from fetch import configured, gcc_source, npm_package

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Pinned, so that the committed results name what was measured.
SQLITE_NPM = "better-sqlite3@12.11.1"      # SQLite 3.53.2 amalgamation in deps/
TS_C_NPM = "tree-sitter-c@0.23.6"          # parser.c of LANGUAGE_VERSION 14 (Debian's runtime)
CMARK_NPM = "cmark-gfm@0.9.0"              # GitHub's cmark-gfm in vendor/cmark
EXPAT_NPM = "node-expat@2.4.1"             # expat 2.2.1 in deps/libexpat
DUKTAPE_NPM = "duktape@0.3.0"              # Duktape 1.3.0 amalgamation in lib/duktape/src
ZOPFLI_NPM = "node-zopfli@2.1.4"           # Google's zopfli in zopfli/src/zopfli
ZSTD_NPM = "zstd-napi@0.0.13"              # zstd 1.5 (Meta) in deps/zstd/lib
GCC_MEMBERS = ["zlib/", "libiberty/", "include/", "config/", "install-sh", "config.sub",
               "config.guess", "mkinstalldirs", "move-if-change"]


@dataclass
class Step:
    name: str
    exe: str
    args: list = field(default_factory=list)
    stdin: str = None          # a file, "@STEP", or None (empty input)
    expect: str = None         # a file stdout must equal (e.g. a round trip)


@dataclass
class Program:
    name: str
    origin: str                # the package(s) it comes from
    srcdir: str
    units: list                # absolute paths of the C files
    cflags: list               # compile flags (all units)
    exes: dict                 # name -> list of units
    libs: list                 # link flags
    steps: list
    sample: bool = False       # part of --sample


def gcc_top(cache):
    return gcc_source(cache, GCC_MEMBERS)


def zlib(cache):
    top = gcc_top(cache)
    src = os.path.join(top, "zlib")
    lib = ["adler32", "compress", "crc32", "deflate", "gzclose", "gzlib", "gzread", "gzwrite",
           "infback", "inffast", "inflate", "inftrees", "trees", "uncompr", "zutil"]
    units = [os.path.join(src, f + ".c") for f in lib + ["example", "minigzip"]]
    libunits = units[:len(lib)]
    # The input of the round trips: three of zlib's own C sources (170 KB).
    data = os.path.join(cache, "zlib-input.txt")
    if not os.path.exists(data):
        with open(data + ".tmp", "wb") as out:
            for u in [units[lib.index(f)] for f in ("deflate", "inflate", "trees")]:
                with open(u, "rb") as f:
                    out.write(f.read())
        os.replace(data + ".tmp", data)
    steps = [Step("example", "example")]
    for opt in ["-1", "-6", "-9", "-h", "-r", "-f"]:
        steps.append(Step("gz" + opt, "minigzip", [opt], stdin=data))
        steps.append(Step("gunzip" + opt, "minigzip", ["-d"], stdin="@gz" + opt, expect=data))
    return Program("zlib", "zlib 1.2.11, Debian gcc-12-source", src, units,
                   ["-O2", "-D_LARGEFILE64_SOURCE=1", "-DHAVE_HIDDEN", "-Wall"],
                   {"example": libunits + [units[-2]], "minigzip": libunits + [units[-1]]},
                   [], steps, sample=True)


def _make_list(makefile, var):
    """The basenames in a `VAR = ./x.$(objext) ...` list of a Makefile."""
    text = open(makefile).read().replace("\\\n", " ")
    m = re.search(r"^%s\s*=(.*)$" % var, text, re.M)
    return re.findall(r"\./([\w-]+)\.\$\(objext\)|\./([\w-]+)\$U\.o", m.group(1)) if m else []


def libiberty(cache):
    top = gcc_top(cache)
    src = os.path.join(top, "libiberty")
    build = configured(cache, "libiberty-build", src)
    mk = os.path.join(build, "Makefile")
    names = [a or b for a, b in _make_list(mk, "REQUIRED_OFILES") + _make_list(mk, "LIBOBJS")]
    libunits = [os.path.join(src, n + ".c") for n in names]
    tests = ["test-demangle", "test-expandargv", "test-strtol", "test-pexecute"]
    tunits = [os.path.join(src, "testsuite", t + ".c") for t in tests]
    ts = os.path.join(src, "testsuite")
    steps = [Step("demangle", "test-demangle", stdin=os.path.join(ts, "demangle-expected")),
             Step("d-demangle", "test-demangle", stdin=os.path.join(ts, "d-demangle-expected")),
             Step("rust-demangle", "test-demangle",
                  stdin=os.path.join(ts, "rust-demangle-expected")),
             Step("expandargv", "test-expandargv"), Step("strtol", "test-strtol"),
             Step("pexecute", "test-pexecute")]
    # The flags of libiberty's Makefile (COMPILE.c), gcc-only warnings included.
    flags = ["-O2", "-DHAVE_CONFIG_H", "-I" + build, "-I" + os.path.join(top, "include"), "-W",
             "-Wall", "-Wwrite-strings", "-Wc++-compat", "-Wstrict-prototypes", "-Wshadow=local",
             "-pedantic", "-D_GNU_SOURCE"]
    return Program("libiberty", "libiberty (GCC 12.2), Debian gcc-12-source", src,
                   libunits + tunits, flags,
                   {t: libunits + [u] for t, u in zip(tests, tunits)}, [], steps, sample=True)


def tree_sitter_c(cache):
    pkg = npm_package(cache, TS_C_NPM)
    src = os.path.join(pkg, "src")
    driver = os.path.join(HERE, "ts_parse.c")
    top = gcc_top(cache)
    # Real C to parse: zlib's inflate and libiberty's C++ demangler.
    inputs = [os.path.join(top, "zlib", "inflate.c"),
              os.path.join(top, "libiberty", "cp-demangle.c")]
    units = [os.path.join(src, "parser.c"), driver]
    return Program("tree-sitter-c", "tree-sitter-c 0.23.6 parser.c, npm; Debian libtree-sitter",
                   src, units, ["-O2", "-I" + src, "-Wall"], {"ts_parse": units},
                   ["-ltree-sitter"],
                   [Step("parse-" + os.path.basename(i), "ts_parse", [i]) for i in inputs],
                   sample=True)


def cmark_gfm(cache):
    pkg = npm_package(cache, CMARK_NPM)
    src = os.path.join(pkg, "vendor", "cmark")
    gyp = open(os.path.join(pkg, "binding.gyp")).read()
    units = [os.path.join(src, f) for f in re.findall(r"'vendor/cmark/([\w-]+\.c)'", gyp)]
    units.append(os.path.join(src, "main.c"))
    # main.c includes "../extensions/cmark-gfm-core-extensions.h", the layout
    # of the cmark-gfm repository; the npm package keeps the header beside it.
    ext_dir = os.path.join(pkg, "vendor", "extensions")
    os.makedirs(ext_dir, exist_ok=True)
    link = os.path.join(ext_dir, "cmark-gfm-core-extensions.h")
    if not os.path.lexists(link):
        os.symlink(os.path.join("..", "cmark", "cmark-gfm-core-extensions.h"), link)
    docs = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    ext = []
    for e in ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]:
        ext += ["-e", e]
    steps = [Step("html", "cmark-gfm", ["--to", "html", "--smart"] + ext + docs),
             Step("commonmark", "cmark-gfm", ["--to", "commonmark", "--width", "72"] + ext + docs),
             Step("xml", "cmark-gfm", ["--to", "xml", "--sourcepos"] + ext + docs[:1]),
             Step("latex", "cmark-gfm", ["--to", "latex"] + docs[1:]),
             Step("man", "cmark-gfm", ["--to", "man"] + docs[1:])]
    return Program("cmark-gfm", "cmark-gfm 0.29 (GitHub), npm cmark-gfm 0.9.0", src, units,
                   ["-O2", "-std=c99", "-I" + src, "-DCMARK_GFM_STATIC_DEFINE",
                    "-DCMARK_GFM_EXTENSIONS_STATIC_DEFINE", "-Wall"],
                   {"cmark-gfm": units}, [], steps)


def sqlite(cache):
    pkg = npm_package(cache, SQLITE_NPM)
    src = os.path.join(pkg, "deps", "sqlite3")
    # The compile-time options better-sqlite3 builds SQLite with.
    defines = re.findall(r"^\s*'(SQLITE_[A-Z0-9_]+(?:=[^']*)?)',",
                         open(os.path.join(pkg, "deps", "defines.gypi")).read(), re.M)
    units = [os.path.join(src, "sqlite3.c"), os.path.join(HERE, "sql_run.c")]
    return Program("sqlite", "SQLite 3.53.2 amalgamation, npm better-sqlite3 12.11.1", src, units,
                   ["-O2", "-I" + src, "-Wall"] + ["-D" + d for d in defines],
                   {"sql_run": units}, ["-lm", "-lpthread"],
                   [Step("workload.sql", "sql_run", [os.path.join(HERE, "workload.sql")])])


def _expat_input(cache):
    """A generated document (4,000 elements: attributes, entities, CDATA,
    comments, processing instructions, namespaces, non-ASCII text) in
    UTF-8 and, with a byte-order mark, UTF-16LE and UTF-16BE: expat's three
    tokenizers (xmltok_impl.c compiled for each)."""
    paths = [os.path.join(cache, "expat-input" + s + ".xml") for s in ("", "-utf16le", "-utf16be")]
    if all(os.path.exists(p) for p in paths):
        return paths
    parts = ['<?xml version="1.0" encoding="%s"?>\n<!DOCTYPE doc [\n<!ENTITY co "kpath &amp; co">\n'
             '<!ATTLIST item kind CDATA "plain">\n]>\n<doc xmlns="urn:doc" xmlns:k="urn:k">\n']
    for i in range(4000):
        kind = ' kind="k%d"' % (i % 7) if i % 3 else ""
        body = ["text %d &co; caf\u00e9 \u2211" % i, "<![CDATA[a<b && c>d %d]]>" % i,
                "<!-- note %d -->" % i, "<?step n=%d?>" % i, "<k:sub k:n='%d'>x&#%d;</k:sub>" % (i, 65 + i % 26)]
        parts.append('<item id="i%d"%s>%s</item>\n' % (i, kind, body[i % len(body)]))
    parts.append("</doc>\n")
    text = "".join(parts)
    for path, enc, codec in zip(paths, ("UTF-8", "UTF-16", "UTF-16"), ("utf-8", "utf-16-le", "utf-16-be")):
        data = (text % enc).encode(codec)
        if codec != "utf-8":
            data = "\ufeff".encode(codec) + data
        with open(path + ".tmp", "wb") as out:
            out.write(data)
        os.replace(path + ".tmp", path)
    return paths


def expat(cache):
    pkg = npm_package(cache, EXPAT_NPM)
    src = os.path.join(pkg, "deps", "libexpat")
    lib = [os.path.join(src, "lib", f + ".c") for f in ("xmlparse", "xmlrole", "xmltok")]
    tests = [os.path.join(src, "tests", f + ".c") for f in ("runtests", "chardata", "minicheck", "memcheck")]
    driver = os.path.join(HERE, "xml_run.c")
    docs = [os.path.join(src, "doc", "xmlwf.xml"), os.path.join(src, "doc", "reference.html")]
    steps = [Step("runtests", "runtests"), Step("parse", "xml_run", docs + _expat_input(cache))]
    return Program("expat", "expat 2.2.1, npm node-expat 2.4.1", src, lib + tests + [driver],
                   ["-O2", "-DHAVE_EXPAT_CONFIG_H", "-I" + src, "-I" + os.path.join(src, "lib"), "-Wall"],
                   {"runtests": lib + tests, "xml_run": lib + [driver]}, [], steps)


def duktape(cache):
    pkg = npm_package(cache, DUKTAPE_NPM)
    top = os.path.join(pkg, "lib", "duktape")
    src = os.path.join(top, "src")
    units = [os.path.join(src, "duktape.c"), os.path.join(top, "examples", "cmdline", "duk_cmdline.c")]
    steps = [Step("mandel.js", "duk", [os.path.join(top, "mandel.js")]),
             Step("workload.js", "duk", [os.path.join(HERE, "workload.js")])]
    return Program("duktape", "Duktape 1.3.0 amalgamation, npm duktape 0.3.0", src, units,
                   ["-O2", "-std=c99", "-I" + src, "-Wall"], {"duk": units}, ["-lm"], steps)


def zopfli(cache):
    pkg = npm_package(cache, ZOPFLI_NPM)
    src = os.path.join(pkg, "zopfli", "src", "zopfli")
    units = sorted(glob.glob(os.path.join(src, "*.c")))  # the library and zopfli_bin.c
    # The zopfli command writes each format to stdout (-c); the inputs are
    # its own sources, so the workload never changes.  Few iterations
    # (--iN) keep it short under callgrind.
    steps = [Step("gzip-i5", "zopfli", ["-c", "--i5", os.path.join(src, "deflate.c")]),
             Step("zlib-i3", "zopfli", ["-c", "--zlib", "--i3", os.path.join(src, "squeeze.c")]),
             Step("deflate-i1", "zopfli", ["-c", "--deflate", "--i1", os.path.join(pkg, "zopfli", "COPYING"),
                                           os.path.join(src, "lz77.c")]),
             Step("gzip-i2-v", "zopfli", ["-c", "-v", "--i2", os.path.join(src, "katajainen.c")])]
    # its Makefile's flags (-lm and -fPIC aside)
    return Program("zopfli", "zopfli (Google), npm node-zopfli 2.1.4", src, units,
                   ["-O2", "-W", "-Wall", "-Wextra", "-ansi", "-pedantic", "-Wno-unused-function"],
                   {"zopfli": units}, ["-lm"], steps)


def zstd(cache):
    pkg = npm_package(cache, ZSTD_NPM)
    gyp = open(os.path.join(pkg, "deps", "zstd.gyp")).read()
    src = os.path.join(pkg, "deps", "zstd", "lib")
    # the library as the package's zstd.gyp builds it, its assembly
    # decoder (huf_decompress_amd64.S) replaced by the C one
    lib = [os.path.join(pkg, "deps", f) for f in re.findall(r"'(zstd/lib/[\w/]+\.c)'", gyp)]
    driver = os.path.join(HERE, "zstd_run.c")
    inputs = [os.path.join(src, "compress", "zstd_opt.c"), os.path.join(src, "decompress", "huf_decompress.c"),
              os.path.join(pkg, "deps", "zstd", "LICENSE")]
    return Program("zstd", "zstd 1.5 (Meta), npm zstd-napi 0.0.13", src, lib + [driver],
                   ["-O2", "-Wall", "-Wextra", "-I" + src, "-DXXH_NAMESPACE=ZSTD_", "-DZSTD_MULTITHREAD",
                    "-DZSTD_NO_TRACE", "-DZSTD_DISABLE_ASM"],
                   {"zstd_run": lib + [driver]}, ["-lpthread"], [Step("zstd_run", "zstd_run", inputs)])


ALL = [zlib, libiberty, tree_sitter_c, cmark_gfm, sqlite, expat, duktape, zopfli, zstd]
NAMES = [p.__name__.replace("_", "-") for p in ALL]
