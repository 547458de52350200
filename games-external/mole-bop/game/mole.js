// Mole Bop: a small whack-a-mole in plain DOM and CSS. Moles rise with a CSS transition and
// can only be bopped once fully up (transitionend); a bop plays a CSS animation and the mole
// drops when it ends (animationend). The score, level and lives live in the page's text.
var holes = document.querySelectorAll('.hole');
var scoreText = document.getElementById('score');
var levelText = document.getElementById('level');
var livesText = document.getElementById('lives');
var statusText = document.getElementById('status');
var spawnTimer = null;
var hits = 0;

function num(el) { return parseInt(el.textContent, 10); }

function freeHoles() {
  var out = [];
  for (var i = 0; i < holes.length; i++) {
    var m = holes[i].firstElementChild;
    if (!m.classList.contains('up') && !m.classList.contains('bonk')) out.push(i);
  }
  return out;
}

function popUp() {
  if (document.body.classList.contains('over')) return;
  var free = freeHoles();
  var level = num(levelText);
  if (free.length > 0) {
    var mole = holes[free[Math.floor(Math.random() * free.length)]].firstElementChild;
    mole.classList.add('up');
    var stay = Math.max(700, 1700 - level * 120);
    mole.escape = setTimeout(function () { escape(mole); }, stay);
  }
  var gap = Math.max(250, 950 - level * 90) + Math.floor(Math.random() * 400);
  spawnTimer = setTimeout(popUp, gap);
}

function escape(mole) {
  if (!mole.classList.contains('up') || mole.classList.contains('bonk')) return;
  mole.classList.remove('up', 'ready');
  var lives = num(livesText) - 1;
  livesText.textContent = lives;
  if (lives <= 0) gameOver();
}

function gameOver() {
  clearTimeout(spawnTimer);
  document.body.classList.add('over');
  statusText.textContent = 'Game over';
  for (var i = 0; i < holes.length; i++) clearTimeout(holes[i].firstElementChild.escape);
}

for (var i = 0; i < holes.length; i++) {
  (function (hole) {
    var mole = hole.firstElementChild;
    mole.addEventListener('transitionend', function (e) {
      if (e.propertyName === 'transform' && mole.classList.contains('up') && !mole.classList.contains('bonk')) mole.classList.add('ready');
    });
    mole.addEventListener('animationend', function () {
      mole.classList.remove('bonk', 'up', 'ready');
    });
    hole.addEventListener('animationend', function () { hole.classList.remove('miss'); });
    hole.addEventListener('mousedown', function () {
      if (document.body.classList.contains('over')) return;
      if (mole.classList.contains('ready')) {
        clearTimeout(mole.escape);
        mole.classList.add('bonk');
        hits++;
        scoreText.textContent = num(scoreText) + 10;
        levelText.textContent = 1 + Math.floor(hits / 6);
      } else if (!mole.classList.contains('up')) {
        hole.classList.add('miss');
      }
    });
  })(holes[i]);
}

window.addEventListener('keydown', function (e) {
  if (e.keyCode === 13 && document.body.classList.contains('over')) location.reload();
});

spawnTimer = setTimeout(popUp, 400);
