// Drawing helpers (a second plain script: everything is global, as in many hobby games).
function drawFruit(ctx, it) {
  if (it.kind === 'bomb') {
    ctx.fillStyle = '#222';
    ctx.beginPath(); ctx.arc(it.x, it.y, 10, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = '#f39c12'; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(it.x + 5, it.y - 8); ctx.lineTo(it.x + 9, it.y - 14); ctx.stroke();
    return;
  }
  ctx.fillStyle = it.kind === 'apple' ? '#e74c3c' : '#f1c40f';
  ctx.beginPath(); ctx.arc(it.x, it.y, 9, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = '#27ae60';
  ctx.fillRect(it.x - 1, it.y - 14, 3, 6);
}

function drawBasket(ctx, x, y, w) {
  ctx.fillStyle = '#a0522d';
  ctx.beginPath();
  ctx.moveTo(x - w / 2, y); ctx.lineTo(x + w / 2, y); ctx.lineTo(x + w / 2 - 8, y + 16); ctx.lineTo(x - w / 2 + 8, y + 16);
  ctx.closePath(); ctx.fill();
  ctx.strokeStyle = '#6e3b1f'; ctx.lineWidth = 2; ctx.stroke();
}
