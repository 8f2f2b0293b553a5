# compilers.sh, sourced with $cc set: compilers="$cc|clang-14", the
# compilers a test builds the original and the instrumented file with.
# clang-14 only where there is one, and not under the sanitizers: the
# runtime the instrumented build links is then built with them, and only
# $cc brings their libraries.
compilers=$cc
case $cc in
*-fsanitize=*) ;;
*) command -v clang-14 >/dev/null 2>&1 && compilers="$compilers|clang-14" ;;
esac
