// Read by uriscan without running it: `baseUrl` is not a literal, so the
// default '/' is used, and the summary says so.
module.exports = {
  title: 'Sample',
  url: 'https://docu.example.org',
  baseUrl: process.env.BASE_URL || '/',
  presets: [['classic', { docs: { sidebarPath: require.resolve('./sidebars.js') } }]],
};
