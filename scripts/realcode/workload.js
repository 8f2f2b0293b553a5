// The Duktape workload of scripts/realcode-run: the interpreter's compiler,
// bytecode executor, garbage collector, regular expressions, JSON, number
// formatting and string built-ins.  Prints only what is deterministic.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print('fib', fib(22));

var o = {}, a = [], s = 0, i, k;
for (i = 0; i < 3000; i++) {
    o['k' + i] = i * 3;
    a.push(String(i * 7919 % 10007).split('').reverse().join(''));
}
for (k in o) s += o[k];
a.sort();
print('objects', s, a.length, a.slice(0, 4).join(','), a[a.length - 1]);

var primes = [], n, d, isp;
for (n = 2; primes.length < 400; n++) {
    isp = true;
    for (d = 0; d < primes.length && primes[d] * primes[d] <= n; d++)
        if (n % primes[d] === 0) { isp = false; break; }
    if (isp) primes.push(n);
}
print('primes', primes[399], primes.reduce(function (x, y) { return x + y; }, 0));

var text = '';
for (i = 0; i < 200; i++) text += 'word' + i + (i % 5 ? ' ' : ', then ') + (i % 11 === 0 ? 'Zeta ' : '');
print('regexp', text.match(/word\d+3\b/g).length, text.replace(/(\d+)/g, function (m) { return m * 2; }).length,
      /(\w+), then (\w+)/.exec(text)[2], text.split(/\s*,\s*/).length, /zeta/i.test(text));

var doc = {name: 'kpath', list: [1, 2.5, -3e-7, true, null, 'esc"aped\n'], nested: {a: {b: {c: [[], {}]}}}};
var json = JSON.stringify(doc), back = JSON.parse(json);
print('json', json.length, back.list[5] === doc.list[5], JSON.stringify(back.nested), JSON.stringify(doc, null, 2).length);

print('numbers', (123.456).toFixed(2), (0.000001234).toExponential(3), (255).toString(16), (1e21).toString(),
      parseInt('z1', 36), parseFloat('3.25e2x'), Math.max.apply(null, primes.slice(0, 50)), (-7.5) % 2, 1 / 3);

function Shape(w, h) { this.w = w; this.h = h; }
Shape.prototype.area = function () { return this.w * this.h; };
var total = 0;
for (i = 0; i < 2000; i++) total += new Shape(i % 13, i % 17).area();
print('objects2', total);

try { null.f(); } catch (e) { print('error', e.name); }
try { throw new RangeError('r' + 1); } catch (e) { print('error', e.name, e.message); }
print('strings', 'Hello, World'.toUpperCase(), 'abc'.charCodeAt(1), String.fromCharCode(74, 83), 'a-b-c'.split('-').join('+'),
      encodeURIComponent('a b&c/\u00e9'), decodeURIComponent('%E2%82%AC'), '  trim  '.trim() + '|', 'x'.concat('y', 3));
var d0 = new Date(Date.UTC(2020, 1, 29, 12, 30, 0));
print('date', d0.toISOString(), d0.getUTCDay(), Date.UTC(1970, 0, 2));
