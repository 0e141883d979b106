/** Screen effects: persistent weather (rain, snow, sakura, stars) as particle systems. */
import { H, W, type WeatherKind } from './types';

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  s: number;
  a: number;
  r: number;
  vr: number;
  ph: number;
}

function rand(a: number, b: number): number {
  return a + Math.random() * (b - a);
}

export class Weather {
  readonly kind: WeatherKind;
  private ps: Particle[] = [];
  private shooting: { x: number; y: number; t: number } | null = null;
  private nextShoot = rand(2, 6);
  private time = 0;

  constructor(kind: WeatherKind) {
    this.kind = kind;
    const n = { rain: 220, snow: 140, sakura: 55, stars: 160 }[kind];
    for (let i = 0; i < n; i++) this.ps.push(this.spawn(true));
  }

  private spawn(anywhere: boolean): Particle {
    switch (this.kind) {
      case 'rain': {
        const s = rand(0.6, 1.4);
        return { x: rand(-100, W + 50), y: anywhere ? rand(-H, H) : rand(-120, -20), vx: -90 * s, vy: 1100 * s, s, a: rand(0.25, 0.55), r: 0, vr: 0, ph: 0 };
      }
      case 'snow': {
        const s = rand(0.5, 1.6);
        return { x: rand(-50, W + 50), y: anywhere ? rand(-20, H) : rand(-60, -10), vx: rand(-15, 15), vy: 35 + 40 * s, s, a: rand(0.55, 0.95), r: 0, vr: 0, ph: rand(0, Math.PI * 2) };
      }
      case 'sakura': {
        const s = rand(0.6, 1.3);
        return { x: rand(-100, W + 100), y: anywhere ? rand(-20, H) : rand(-80, -20), vx: rand(20, 70), vy: rand(45, 90) * s, s, a: rand(0.75, 1), r: rand(0, Math.PI * 2), vr: rand(-2, 2), ph: rand(0, Math.PI * 2) };
      }
      case 'stars':
      default: {
        // mostly in the upper part of the sky
        const y = Math.pow(Math.random(), 1.6) * H * 0.62;
        return { x: rand(0, W), y, vx: 0, vy: 0, s: rand(0.5, 1.8), a: rand(0.35, 1), r: 0, vr: rand(0.8, 3), ph: rand(0, Math.PI * 2) };
      }
    }
  }

  /** Advances the simulation by dt seconds. */
  update(dt: number): void {
    dt = Math.min(dt, 0.1);
    this.time += dt;
    if (this.kind === 'stars') {
      this.nextShoot -= dt;
      if (this.nextShoot <= 0) {
        this.shooting = { x: rand(200, W - 100), y: rand(20, 200), t: 0 };
        this.nextShoot = rand(4, 9);
      }
      if (this.shooting) {
        this.shooting.t += dt;
        if (this.shooting.t > 0.9) this.shooting = null;
      }
      return;
    }
    for (let i = 0; i < this.ps.length; i++) {
      const p = this.ps[i];
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      if (this.kind === 'snow') p.x += Math.sin(this.time * 1.3 + p.ph) * 18 * dt;
      if (this.kind === 'sakura') {
        p.r += p.vr * dt;
        p.x += Math.sin(this.time * 1.7 + p.ph) * 30 * dt;
      }
      if (p.y > H + 30 || p.x > W + 120 || p.x < -140) this.ps[i] = this.spawn(false);
    }
  }

  /** True for effects that belong behind the characters (a starry sky). */
  get behindCharacters(): boolean {
    return this.kind === 'stars';
  }

  draw(ctx: CanvasRenderingContext2D): void {
    ctx.save();
    switch (this.kind) {
      case 'rain': {
        ctx.fillStyle = 'rgba(20, 30, 55, 0.18)';
        ctx.fillRect(0, 0, W, H);
        ctx.strokeStyle = 'rgba(200, 215, 240, 1)';
        ctx.lineCap = 'round';
        for (const p of this.ps) {
          ctx.globalAlpha = p.a;
          ctx.lineWidth = 1 + p.s * 0.6;
          ctx.beginPath();
          ctx.moveTo(p.x, p.y);
          ctx.lineTo(p.x + p.vx * 0.03, p.y + p.vy * 0.03);
          ctx.stroke();
        }
        break;
      }
      case 'snow': {
        ctx.fillStyle = '#ffffff';
        for (const p of this.ps) {
          ctx.globalAlpha = p.a;
          ctx.beginPath();
          ctx.arc(p.x, p.y, 1.5 + p.s * 2.2, 0, Math.PI * 2);
          ctx.fill();
        }
        break;
      }
      case 'sakura': {
        for (const p of this.ps) {
          ctx.globalAlpha = p.a;
          ctx.save();
          ctx.translate(p.x, p.y);
          ctx.rotate(p.r);
          ctx.scale(1, 0.55 + 0.45 * Math.sin(this.time * 3 + p.ph));
          const sz = 7 * p.s;
          ctx.fillStyle = '#ffc4d6';
          ctx.beginPath();
          // a petal: two arcs with a notch at the tip
          ctx.moveTo(0, -sz);
          ctx.quadraticCurveTo(sz, -sz * 0.2, 0, sz);
          ctx.quadraticCurveTo(-sz, -sz * 0.2, 0, -sz);
          ctx.fill();
          ctx.fillStyle = 'rgba(255, 150, 185, 0.8)';
          ctx.beginPath();
          ctx.ellipse(0, sz * 0.35, sz * 0.25, sz * 0.4, 0, 0, Math.PI * 2);
          ctx.fill();
          ctx.restore();
        }
        break;
      }
      case 'stars': {
        for (const p of this.ps) {
          const tw = 0.55 + 0.45 * Math.sin(this.time * p.vr + p.ph);
          ctx.globalAlpha = p.a * tw;
          ctx.fillStyle = p.s > 1.5 ? '#fff6d8' : '#ffffff';
          ctx.beginPath();
          ctx.arc(p.x, p.y, p.s * 0.9, 0, Math.PI * 2);
          ctx.fill();
          if (p.s > 1.55) {
            ctx.globalAlpha = p.a * tw * 0.35;
            ctx.fillRect(p.x - p.s * 3, p.y - 0.5, p.s * 6, 1);
            ctx.fillRect(p.x - 0.5, p.y - p.s * 3, 1, p.s * 6);
          }
        }
        if (this.shooting) {
          const s = this.shooting;
          const k = s.t / 0.9;
          const hx = s.x + k * 260;
          const hy = s.y + k * 120;
          const grad = ctx.createLinearGradient(hx - 120, hy - 55, hx, hy);
          grad.addColorStop(0, 'rgba(255,255,255,0)');
          grad.addColorStop(1, 'rgba(255,255,255,0.9)');
          ctx.globalAlpha = Math.sin(Math.PI * k);
          ctx.strokeStyle = grad;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(hx - 120, hy - 55);
          ctx.lineTo(hx, hy);
          ctx.stroke();
        }
        break;
      }
    }
    ctx.restore();
  }
}
