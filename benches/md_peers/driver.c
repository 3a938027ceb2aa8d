/* The field's fastest CommonMark parsers, parse only, on the pages our
 * reader's profile reads: benches/md_peers.sh builds this with cc.
 *
 *   driver STEP PASSES FILE
 *
 * FILE holds the pages, each followed by a NUL byte (a file with none is
 * one document). STEP is one of
 *   md4c        md_parse with callbacks that do nothing
 *   md4c-links  md_parse, enter_span counting MD_SPAN_A and MD_SPAN_IMG
 *   cmark       cmark-gfm: cmark_parser_feed and cmark_parser_finish with
 *               the table and strikethrough extensions attached and
 *               footnotes on (what `links` asks of pulldown-cmark), the
 *               tree freed; nothing rendered
 * Built with -DHAVE_MD4C and/or -DHAVE_CMARK for the libraries found.
 * Prints the fastest and the median of PASSES passes, as
 * examples/md_reader_profile.rs does, so that the lines sit side by side;
 * `pass` is its own function for valgrind's --toggle-collect=pass. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_MD4C
#include <md4c.h>
#endif
#ifdef HAVE_CMARK
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#endif

struct page {
    const char *text;
    size_t size;
};

#ifdef HAVE_MD4C
static int md_nothing_block(MD_BLOCKTYPE type, void *detail, void *data) {
    (void)type;
    (void)detail;
    (void)data;
    return 0;
}
static int md_nothing_span(MD_SPANTYPE type, void *detail, void *data) {
    (void)type;
    (void)detail;
    (void)data;
    return 0;
}
static int md_nothing_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size,
                           void *data) {
    (void)type;
    (void)text;
    (void)size;
    (void)data;
    return 0;
}
static int md_count_links(MD_SPANTYPE type, void *detail, void *data) {
    (void)detail;
    if (type == MD_SPAN_A || type == MD_SPAN_IMG)
        ++*(size_t *)data;
    return 0;
}
/* md4c has no footnotes and no heading attributes; permissive autolinks
 * (bare URLs) are left off, as pulldown-cmark has none. */
static const unsigned md_flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH;
#endif

#ifdef HAVE_CMARK
static cmark_syntax_extension *table_extension, *strikethrough_extension;
#endif

__attribute__((noinline)) static size_t pass(const char *step, const struct page *pages, size_t count) {
    size_t total = 0;
#ifdef HAVE_MD4C
    if (strncmp(step, "md4c", 4) == 0) {
        MD_PARSER parser = {0};
        parser.flags = md_flags;
        parser.enter_block = md_nothing_block;
        parser.leave_block = md_nothing_block;
        parser.enter_span = strcmp(step, "md4c-links") == 0 ? md_count_links
                                                            : md_nothing_span;
        parser.leave_span = md_nothing_span;
        parser.text = md_nothing_text;
        for (size_t k = 0; k < count; k++) {
            if (md_parse(pages[k].text, (MD_SIZE)pages[k].size, &parser,
                         &total) != 0)
                fprintf(stderr, "md4c: page %zu failed\n", k);
            total++;
        }
        return total;
    }
#endif
#ifdef HAVE_CMARK
    if (strcmp(step, "cmark") == 0) {
        for (size_t k = 0; k < count; k++) {
            cmark_parser *parser = cmark_parser_new(CMARK_OPT_FOOTNOTES);
            cmark_parser_attach_syntax_extension(parser, table_extension);
            cmark_parser_attach_syntax_extension(parser,
                                                 strikethrough_extension);
            cmark_parser_feed(parser, pages[k].text, pages[k].size);
            cmark_node *document = cmark_parser_finish(parser);
            total += cmark_node_first_child(document) != NULL;
            cmark_node_free(document);
            cmark_parser_free(parser);
        }
        return total;
    }
#endif
    fprintf(stderr, "unknown or unbuilt step %s\n", step);
    exit(2);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s STEP PASSES FILE\n", argv[0]);
        return 2;
    }
    const char *step = argv[1];
    int passes = atoi(argv[2]);
    if (passes < 1)
        passes = 1;
    FILE *file = fopen(argv[3], "rb");
    if (!file) {
        fprintf(stderr, "%s: unreadable\n", argv[3]);
        return 2;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)length + 1);
    if (!bytes || fread(bytes, 1, (size_t)length, file) != (size_t)length) {
        fprintf(stderr, "%s: unreadable\n", argv[3]);
        return 2;
    }
    fclose(file);
    /* Each page ends with a NUL; text after the last NUL (all of a file
     * with none) is a page too. */
    size_t count = 1;
    for (long k = 0; k < length; k++)
        count += bytes[k] == '\0';
    struct page *pages = malloc(count * sizeof *pages);
    size_t size = 0, found = 0;
    long start = 0;
    for (long k = 0; k <= length; k++) {
        if (k == length && start == length && found > 0)
            break;
        if (k == length || bytes[k] == '\0') {
            pages[found].text = bytes + start;
            pages[found].size = (size_t)(k - start);
            size += pages[found].size;
            found++;
            start = k + 1;
        }
    }
#ifdef HAVE_CMARK
    cmark_gfm_core_extensions_ensure_registered();
    table_extension = cmark_find_syntax_extension("table");
    strikethrough_extension = cmark_find_syntax_extension("strikethrough");
    if (!table_extension || !strikethrough_extension) {
        fprintf(stderr, "cmark-gfm: the table or strikethrough extension is missing\n");
        return 2;
    }
#endif
    double *times = malloc((size_t)passes * sizeof *times);
    size_t total = 0;
    for (int k = 0; k < passes; k++) {
        struct timespec started, ended;
        clock_gettime(CLOCK_MONOTONIC, &started);
        total += pass(step, pages, found);
        clock_gettime(CLOCK_MONOTONIC, &ended);
        times[k] = (double)(ended.tv_sec - started.tv_sec) +
                   1e-9 * (double)(ended.tv_nsec - started.tv_nsec);
    }
    qsort(times, (size_t)passes, sizeof *times, by_value);
    double fastest = times[0], median = times[passes / 2];
    printf("%s: fastest pass %.2f ms (%.0f MB/s), median %.2f ms (%.0f MB/s)\n",
           step, 1e3 * fastest, (double)size / fastest / 1e6, 1e3 * median,
           (double)size / median / 1e6);
    printf("%zu pages, %zu bytes, %zu items\n", found, size, total);
    return 0;
}
