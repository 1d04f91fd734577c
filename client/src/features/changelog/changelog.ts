/** The site's history, newest first. Each entry names features a visitor can find on the site. */
export type Release = { version: string; title: string; changes: string[] };

export const releases: Release[] = [
  {
    version: '3.3.1',
    title: 'Polish and accessibility',
    changes: [
      'Every page is checked with an accessibility scanner; labels, landmarks and focus outlines were fixed where it complained.',
      'The About page is prerendered, so it shows its cards before any script has run.',
      'The narrow navbar now fits a phone screen without wrapping.',
    ],
  },
  {
    version: '3.3.0',
    title: 'Navbar styles',
    changes: [
      'Settings has a toggle between "Scroll to toggle navbar" and "Button to toggle navbar", saved to your account.',
      'In scroll mode the bar slides away while you scroll down and comes back when you scroll up.',
    ],
  },
  {
    version: '3.2.0',
    title: 'Rotate All Colors',
    changes: [
      'A Rotate All Colors slider turns the hue of every colour except links and errors, so a new theme is one drag away.',
      'Each colour that differs from the default gets a reset arrow.',
    ],
  },
  {
    version: '3.1.0',
    title: 'Keyboard friendly',
    changes: [
      'Navbar tabs open their dropdown on keyboard focus as well as on hover, and Space or Enter activates any tab.',
      'Text fields no longer submit on a stray Enter: hold ctrl and press Enter to submit.',
    ],
  },
  {
    version: '3.0.0',
    title: 'A new shell',
    changes: [
      'The whole site was rebuilt as one application with a loading cover, so your colours are applied before anything is shown.',
      'Addresses containing "print" show the page alone, without the navbar.',
      'Unknown addresses answer "How did you get here" instead of a blank page.',
    ],
  },
  {
    version: '2.2.0',
    title: 'Welcome popup',
    changes: ['Opening the hub shows a short welcome; Cancel hides it for good.'],
  },
  {
    version: '2.1.0',
    title: 'Your own colours',
    changes: [
      'Settings page with seven colour pickers: menus, background, text, accents, links, errors and the secondary menu.',
      'Colours are saved per account and follow you to every device.',
    ],
  },
  {
    version: '2.0.0',
    title: 'Admin dashboard',
    changes: [
      'Admins manage accounts from a table of users whose level select saves at once.',
      'Pictures uploaded by Friend accounts wait for the owner to approve them; Family uploads need no approval.',
    ],
  },
  {
    version: '1.2.0',
    title: 'Members hub',
    changes: [
      'The hub at /personal lists the tools your level opens, with Connect buttons that copy contact details.',
      'Family accounts see Climb Passes, House TODO, Add Pictures and Windows Keys.',
    ],
  },
  {
    version: '1.1.0',
    title: 'Accounts',
    changes: [
      'Log in and create an account on one page, each panel with its own error messages.',
      'New accounts wait on a pending page until the owner raises their level.',
    ],
  },
  {
    version: '1.0.0',
    title: 'First light',
    changes: ['The About page with overview, work, college, high school and hobbies cards, and buttons to e-mail or find the owner online.'],
  },
];
