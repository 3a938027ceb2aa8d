// The sample's own configuration, with every broken-link check of
// Docusaurus set to warn: the build goes on to write the site, and its
// messages list each broken link, which tests/sites/compare.py holds to
// uriscan's. Copied beside the sample's copy by conformance.sh.
const config = require('./docusaurus.config.js');

module.exports = {
  ...config,
  onBrokenLinks: 'warn',
  onBrokenAnchors: 'warn',
  markdown: {
    ...config.markdown,
    hooks: {
      ...(config.markdown && config.markdown.hooks),
      onBrokenMarkdownLinks: 'warn',
      onBrokenMarkdownImages: 'warn',
    },
  },
};
