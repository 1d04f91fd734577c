/* global document, window */
// A stand-in for the real 5eTools: an inline script, a script file and a JSON file it fetches.
document.getElementById('inline').textContent = window.inlineRan ? 'Inline script ran' : 'Inline script blocked';
fetch('data/spells.json')
  .then((response) => response.json())
  .then((data) => {
    const list = document.getElementById('spells');
    for (const spell of data.spell) {
      const item = document.createElement('li');
      item.textContent = `${spell.name} (level ${spell.level})`;
      list.appendChild(item);
    }
    document.getElementById('status').textContent = `Loaded ${data.spell.length} spells`;
  })
  .catch((error) => {
    document.getElementById('status').textContent = `Failed: ${error}`;
  });
