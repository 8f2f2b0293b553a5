/* libclang, loaded when kpath first needs it.
 *
 * A program linked with libclang pays for it at every start, whatever it
 * does: libLLVM's static constructors and page faults cost about 70 ms of
 * CPU per process on this project's machine (an empty main linked with
 * -lclang-14: 78 ms against 8 ms).  `kpath report`, `show`, `merge`,
 * `html`... never parse C, and tools and CI pipelines run them many times
 * (the profile fuzzer runs ~1,000 of them per CI pass).  So kpath does not
 * link libclang: this file defines the libclang functions kpath calls, each
 * forwarding to the real one, which the first call looks up with dlopen and
 * dlsym (KP_LIBCLANG_PATH, the library found at configure time).  A library
 * that cannot be loaded, or lacks a function, is a clear error and exit
 * status 2 before anything is parsed or written.
 *
 * The prototypes are Index.h's own (the compiler checks each definition
 * against its declaration).  A libclang function kpath starts to use must be
 * added to KP_LIBCLANG_FUNCS, or the link fails. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#ifndef KP_LIBCLANG_PATH
#error "KP_LIBCLANG_PATH: the libclang shared library (cfgbuild/CMakeLists.txt)"
#endif

/* Every libclang function kpath calls: F(return type, name, parameters,
 * arguments) or V(name, parameters, arguments) for those returning void. */
#define KP_LIBCLANG_FUNCS(F, V) \
	F(CXEvalResult, clang_Cursor_Evaluate, (CXCursor a0), (a0)) \
	F(enum CX_StorageClass, clang_Cursor_getStorageClass, (CXCursor a0), (a0)) \
	F(CXTranslationUnit, clang_Cursor_getTranslationUnit, (CXCursor a0), (a0)) \
	F(CXCursor, clang_Cursor_getVarDeclInitializer, (CXCursor a0), (a0)) \
	F(unsigned, clang_Cursor_hasAttrs, (CXCursor a0), (a0)) \
	F(unsigned, clang_Cursor_isFunctionInlined, (CXCursor a0), (a0)) \
	F(unsigned, clang_Cursor_isMacroFunctionLike, (CXCursor a0), (a0)) \
	F(int, clang_Cursor_isNull, (CXCursor a0), (a0)) \
	F(int, clang_File_isEqual, (CXFile a0, CXFile a1), (a0, a1)) \
	F(int, clang_Location_isFromMainFile, (CXSourceLocation a0), (a0)) \
	F(int, clang_Location_isInSystemHeader, (CXSourceLocation a0), (a0)) \
	F(unsigned, clang_Type_visitFields, (CXType a0, CXFieldVisitor a1, CXClientData a2), (a0, a1, a2)) \
	F(CXIndex, clang_createIndex, (int a0, int a1), (a0, a1)) \
	F(unsigned, clang_defaultDiagnosticDisplayOptions, (void), ()) \
	V(clang_disposeDiagnostic, (CXDiagnostic a0), (a0)) \
	V(clang_EvalResult_dispose, (CXEvalResult a0), (a0)) \
	F(CXEvalResultKind, clang_EvalResult_getKind, (CXEvalResult a0), (a0)) \
	F(long long, clang_EvalResult_getAsLongLong, (CXEvalResult a0), (a0)) \
	V(clang_disposeIndex, (CXIndex a0), (a0)) \
	V(clang_PrintingPolicy_dispose, (CXPrintingPolicy a0), (a0)) \
	V(clang_PrintingPolicy_setProperty, (CXPrintingPolicy a0, enum CXPrintingPolicyProperty a1, unsigned a2), (a0, a1, a2)) \
	V(clang_disposeSourceRangeList, (CXSourceRangeList*a0), (a0)) \
	V(clang_disposeString, (CXString a0), (a0)) \
	V(clang_disposeTokens, (CXTranslationUnit a0, CXToken*a1, unsigned a2), (a0, a1, a2)) \
	V(clang_disposeTranslationUnit, (CXTranslationUnit a0), (a0)) \
	F(unsigned, clang_equalCursors, (CXCursor a0, CXCursor a1), (a0, a1)) \
	F(CXString, clang_formatDiagnostic, (CXDiagnostic a0, unsigned a1), (a0, a1)) \
	F(CXType, clang_getArgType, (CXType a0, unsigned a1), (a0, a1)) \
	F(CXType, clang_getArrayElementType, (CXType a0), (a0)) \
	F(long long, clang_getArraySize, (CXType a0), (a0)) \
	F(const char *, clang_getCString, (CXString a0), (a0)) \
	F(CXType, clang_getCanonicalType, (CXType a0), (a0)) \
	F(CXCursor, clang_getCursor, (CXTranslationUnit a0, CXSourceLocation a1), (a0, a1)) \
	F(CXCursor, clang_getCanonicalCursor, (CXCursor a0), (a0)) \
	F(CXCursor, clang_getCursorDefinition, (CXCursor a0), (a0)) \
	F(CXSourceRange, clang_getCursorExtent, (CXCursor a0), (a0)) \
	F(enum CXCursorKind, clang_getCursorKind, (CXCursor a0), (a0)) \
	F(CXString, clang_getCursorKindSpelling, (enum CXCursorKind a0), (a0)) \
	F(enum CXLinkageKind, clang_getCursorLinkage, (CXCursor a0), (a0)) \
	F(CXPrintingPolicy, clang_getCursorPrintingPolicy, (CXCursor a0), (a0)) \
	F(CXString, clang_getCursorPrettyPrinted, (CXCursor a0, CXPrintingPolicy a1), (a0, a1)) \
	F(CXSourceLocation, clang_getCursorLocation, (CXCursor a0), (a0)) \
	F(CXCursor, clang_getCursorReferenced, (CXCursor a0), (a0)) \
	F(CXString, clang_getCursorSpelling, (CXCursor a0), (a0)) \
	F(CXType, clang_getCursorType, (CXCursor a0), (a0)) \
	F(CXDiagnostic, clang_getDiagnostic, (CXTranslationUnit a0, unsigned a1), (a0, a1)) \
	F(CXSourceLocation, clang_getDiagnosticLocation, (CXDiagnostic a0), (a0)) \
	F(CXString, clang_getDiagnosticOption, (CXDiagnostic a0, CXString*a1), (a0, a1)) \
	F(enum CXDiagnosticSeverity, clang_getDiagnosticSeverity, (CXDiagnostic a0), (a0)) \
	V(clang_getExpansionLocation, (CXSourceLocation a0, CXFile*a1, unsigned*a2, unsigned*a3, unsigned*a4), (a0, a1, a2, a3, a4)) \
	F(CXFile, clang_getFile, (CXTranslationUnit a0, const char*a1), (a0, a1)) \
	F(const char *, clang_getFileContents, (CXTranslationUnit a0, CXFile a1, size_t*a2), (a0, a1, a2)) \
	V(clang_getFileLocation, (CXSourceLocation a0, CXFile*a1, unsigned*a2, unsigned*a3, unsigned*a4), (a0, a1, a2, a3, a4)) \
	F(CXString, clang_getFileName, (CXFile a0), (a0)) \
	V(clang_getInclusions, (CXTranslationUnit a0, CXInclusionVisitor a1, CXClientData a2), (a0, a1, a2)) \
	F(CXFile, clang_getIncludedFile, (CXCursor a0), (a0)) \
	F(CXSourceLocation, clang_getLocationForOffset, (CXTranslationUnit a0, CXFile a1, unsigned a2), (a0, a1, a2)) \
	F(CXCursor, clang_getNullCursor, (void), ()) \
	F(int, clang_getNumArgTypes, (CXType a0), (a0)) \
	F(unsigned, clang_getNumDiagnostics, (CXTranslationUnit a0), (a0)) \
	F(CXType, clang_getPointeeType, (CXType a0), (a0)) \
	F(CXSourceRange, clang_getRange, (CXSourceLocation a0, CXSourceLocation a1), (a0, a1)) \
	F(CXSourceLocation, clang_getRangeEnd, (CXSourceRange a0), (a0)) \
	F(CXSourceLocation, clang_getRangeStart, (CXSourceRange a0), (a0)) \
	F(CXType, clang_getResultType, (CXType a0), (a0)) \
	F(CXSourceRangeList *, clang_getSkippedRanges, (CXTranslationUnit a0, CXFile a1), (a0, a1)) \
	V(clang_getSpellingLocation, (CXSourceLocation a0, CXFile*a1, unsigned*a2, unsigned*a3, unsigned*a4), (a0, a1, a2, a3, a4)) \
	F(CXSourceRange, clang_getTokenExtent, (CXTranslationUnit a0, CXToken a1), (a0, a1)) \
	F(CXTokenKind, clang_getTokenKind, (CXToken a0), (a0)) \
	F(CXSourceLocation, clang_getTokenLocation, (CXTranslationUnit a0, CXToken a1), (a0, a1)) \
	F(CXString, clang_getTokenSpelling, (CXTranslationUnit a0, CXToken a1), (a0, a1)) \
	F(CXCursor, clang_getTranslationUnitCursor, (CXTranslationUnit a0), (a0)) \
	F(CXString, clang_getTranslationUnitSpelling, (CXTranslationUnit a0), (a0)) \
	F(CXString, clang_getTypeSpelling, (CXType a0), (a0)) \
	F(unsigned, clang_isAttribute, (enum CXCursorKind a0), (a0)) \
	F(unsigned, clang_isConstQualifiedType, (CXType a0), (a0)) \
	F(unsigned, clang_isCursorDefinition, (CXCursor a0), (a0)) \
	F(unsigned, clang_isFunctionTypeVariadic, (CXType a0), (a0)) \
	F(unsigned, clang_isStatement, (enum CXCursorKind a0), (a0)) \
	F(enum CXErrorCode, clang_parseTranslationUnit2, (CXIndex a0, const char*a1, const char *const *a2, int a3, struct CXUnsavedFile*a4, unsigned a5, unsigned a6, CXTranslationUnit*a7), (a0, a1, a2, a3, a4, a5, a6, a7)) \
	V(clang_tokenize, (CXTranslationUnit a0, CXSourceRange a1, CXToken**a2, unsigned*a3), (a0, a1, a2, a3)) \
	F(unsigned, clang_visitChildren, (CXCursor a0, CXCursorVisitor a1, CXClientData a2), (a0, a1, a2))

#define KP_LC_FIELD(ret, name, params, args) ret(*name) params;
#define KP_LC_VFIELD(name, params, args) void(*name) params;
static struct {
	KP_LIBCLANG_FUNCS(KP_LC_FIELD, KP_LC_VFIELD)
} lc;

static pthread_once_t lc_once = PTHREAD_ONCE_INIT;

static void *lc_sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);
	if (!p) {
		fprintf(stderr, "kpath: %s has no %s: %s\n", KP_LIBCLANG_PATH, name, dlerror());
		exit(2);
	}
	return p;
}

/* Function pointers from dlsym: POSIX guarantees the conversion (the
 * memcpy keeps -pedantic quiet about object-to-function pointer casts). */
#define KP_LC_LOAD(ret, name, params, args) { void *p = lc_sym(lib, #name); memcpy(&lc.name, &p, sizeof p); }
#define KP_LC_VLOAD(name, params, args) KP_LC_LOAD(void, name, params, args)

static void lc_load(void)
{
	void *lib = dlopen(KP_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "kpath: cannot load libclang, which parsing C needs: %s\n", dlerror());
		exit(2);
	}
	KP_LIBCLANG_FUNCS(KP_LC_LOAD, KP_LC_VLOAD)
}

#define LC() (pthread_once(&lc_once, lc_load), &lc)
#define KP_LC_WRAP(ret, name, params, args) ret name params { return LC()->name args; }
#define KP_LC_VWRAP(name, params, args) void name params { LC()->name args; }
KP_LIBCLANG_FUNCS(KP_LC_WRAP, KP_LC_VWRAP)
