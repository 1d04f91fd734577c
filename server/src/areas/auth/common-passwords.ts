/**
 * The most common passwords of 8 characters or more (shorter ones are refused by length anyway),
 * drawn from the public breach-frequency lists (SecLists' top passwords, NCSC's 100k list). A sign-up
 * with one of these, ignoring case, is refused. Small on purpose: it catches the passwords an
 * attacker tries first; length does the rest.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  'password', '12345678', '123456789', '1234567890', 'qwertyuiop', 'password1', 'iloveyou1', '11111111',
  '00000000', 'sunshine', 'princess1', 'football', 'baseball', 'welcome1', 'abc12345', 'qwerty123',
  '1q2w3e4r', '1qaz2wsx', 'zaq12wsx', 'qwertyui', 'trustno1', 'superman', 'batman123', 'passw0rd',
  'p@ssw0rd', 'p@ssword', 'password123', 'password12', 'password!', 'admin123', 'administrator', 'letmein1',
  'letmein123', 'monkey123', 'dragon123', 'master123', 'shadow123', 'michael1', 'jennifer', 'jordan23',
  'hunter22', 'starwars', 'whatever1', 'freedom1', 'computer', 'internet', '987654321', '123123123',
  '12341234', '11223344', '12344321', '87654321', '99999999', '88888888', '12121212', 'aaaaaaaa', 'asdfghjk',
  'asdfasdf', 'qazwsxedc', '1qazxsw2', 'q1w2e3r4', 'q1w2e3r4t5', 'zxcvbnm1', 'zxcvbnm123', 'iloveyou2',
  'lovely123', 'babygirl1', 'butterfly', 'chocolate', 'cookie123', 'elephant', 'pokemon1', 'minecraft',
  'fortnite1', 'liverpool', 'chelsea1', 'arsenal1', 'manchester', 'blink182', 'samsung1', 'iphone123',
  'google123', 'facebook', 'myspace1', 'linkedin1', 'changeme', 'changeme1', 'default1', 'secret12',
  'secret123', 'testtest', 'test1234', 'test12345', 'guest123', 'welcome123', 'welcome!', 'summer2023',
  'summer2024', 'winter2023', 'winter2024', 'spring2024', 'autumn2024', 'january1', 'december', 'password2',
  'passwort', 'motdepasse', 'contrasena', '1234qwer', 'qwer1234', 'asdf1234', '1234abcd', 'abcd1234',
  'abcdefgh', '123qweasd', 'qweasdzxc', '1q2w3e4r5t', '1q2w3e4r5t6y', 'a1b2c3d4', 'aa123456', '123456aa',
  '123456789a', 'a123456789', 'qwerty12', 'qwerty1234', 'loveyou1', 'sunshine1', 'iloveyou!', 'princess',
  'flower12', 'jessica1', 'charlie1', 'thomas12', 'daniel12', 'andrew12', 'joshua12', 'matthew1', 'michelle',
  'ashley12', 'nicole12', 'hannah12', 'football1', 'baseball1', 'basketball', 'soccer12', 'hockey12',
  'killer12', 'pepper12', 'ginger12', 'maggie12', 'buster12', 'tigger12', 'yankees1', 'cowboys1', 'steelers',
  'eagles12', 'mustang1', 'corvette', 'ferrari1', 'porsche1', 'mercedes', 'harley12', 'diamond1', 'silver12',
  'golden12', 'purple12', 'orange12', 'banana12', 'cheese12', 'pizza123', 'coffee12', 'whiskey1', 'vodka123',
  'nothing1', 'letmeinnow',
]);
