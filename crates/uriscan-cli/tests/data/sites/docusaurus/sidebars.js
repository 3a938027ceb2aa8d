// Read by uriscan without running it; the configuration names it by
// require.resolve. The category's free-form properties name no doc.
/** @type {import('@docusaurus/plugin-content-docs').SidebarsConfig} */
module.exports = {
  docs: [
    'intro',
    {type: 'category', label: 'Guide', customProps: {tags: ['new']}, items: ['guide/install', 'guide/missing']},
  ],
};
