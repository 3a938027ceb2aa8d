//! The configuration of `uriscan links`, resolved from its arguments.

use std::path::PathBuf;

use anyhow::Context;
use uriscan::links::{Format, LinkExtractor};

use super::{Env, Input, Listing};
use crate::args::{LinksArgs, LinksFormat};
use crate::documents::Sources;
use crate::rewrite::Rewrite;

/// Everything `links` needs to know.
pub struct LinksConfig {
    pub listing: Listing,
    pub sources: Sources,
    /// `--to`: the canonical path, and the anchor.
    pub to: Option<(PathBuf, Option<String>)>,
    /// `--format warc`: every input is a web archive.
    pub all_warc: bool,
    pub rewrite: Rewrite,
    /// Not `--no-mmap`.
    pub map_named: bool,
    /// Not `--url-standard`: the JSON rows say where browsers read a
    /// link otherwise than its RFC 3986 target.
    pub browser_warnings: bool,
}

impl TryFrom<LinksArgs> for LinksConfig {
    type Error = anyhow::Error;

    fn try_from(args: LinksArgs) -> anyhow::Result<LinksConfig> {
        let env = Env::current();
        let listing = Listing::new(&args.output, &args.walk, args.paths, env)?;
        let mut extractor = LinkExtractor::builder();
        extractor
            .include_code(args.include_code)
            .include_text(args.include_text)
            .markdown_parser(args.doc.markdown_parser())
            .url_standard(args.url_standard);
        let all_warc = args.format == Some(LinksFormat::Warc);
        let format = args.format.and_then(|f| match f {
            LinksFormat::Markdown => Some(Format::Markdown),
            LinksFormat::Html => Some(Format::Html),
            LinksFormat::Text => Some(Format::Text),
            LinksFormat::Asciidoc => Some(Format::AsciiDoc),
            LinksFormat::Myst => Some(Format::Myst),
            LinksFormat::Warc => None,
        });
        for s in &args.exclude_scheme {
            if !uriscan::syntax::is_scheme(s) {
                anyhow::bail!("invalid scheme in --exclude-scheme: {s:?}");
            }
        }
        let rewrite = Rewrite {
            exclude: args
                .exclude_scheme
                .iter()
                .map(|s| s.to_ascii_lowercase())
                .collect(),
            normalize: args.normalize,
            idna: args.idna,
            no_fragment: args.no_fragment,
            surt: args.surt,
        };
        let walked = listing.inputs.iter().filter_map(|i| match i {
            Input::Path(p) => Some(p.as_path()),
            Input::Stdin => None,
        });
        let sources = Sources::new(
            walked,
            extractor.build(),
            format,
            args.base_url,
            args.root.as_deref(),
        )?;
        let to = match &args.to {
            None => None,
            Some(t) => {
                let (file, anchor) = match t.split_once('#') {
                    Some((f, a)) => (f, Some(a.to_owned())),
                    None => (t.as_str(), None),
                };
                let path = std::fs::canonicalize(file)
                    .with_context(|| format!("--to {file}"))?;
                Some((path, anchor))
            }
        };
        Ok(LinksConfig {
            listing,
            sources,
            to,
            all_warc,
            rewrite,
            map_named: !args.doc.no_mmap,
            browser_warnings: !args.url_standard,
        })
    }
}
