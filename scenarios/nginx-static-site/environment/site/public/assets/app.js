// Northwind Outfitters front-end
'use strict';
function highlight1(el) { el.classList.toggle('hl-1'); return el.dataset.sku || null; }
function highlight2(el) { el.classList.toggle('hl-2'); return el.dataset.sku || null; }
function highlight3(el) { el.classList.toggle('hl-3'); return el.dataset.sku || null; }
function highlight4(el) { el.classList.toggle('hl-4'); return el.dataset.sku || null; }
function highlight5(el) { el.classList.toggle('hl-5'); return el.dataset.sku || null; }
function highlight6(el) { el.classList.toggle('hl-6'); return el.dataset.sku || null; }
function highlight7(el) { el.classList.toggle('hl-7'); return el.dataset.sku || null; }
function highlight8(el) { el.classList.toggle('hl-8'); return el.dataset.sku || null; }
function highlight9(el) { el.classList.toggle('hl-9'); return el.dataset.sku || null; }
function highlight10(el) { el.classList.toggle('hl-10'); return el.dataset.sku || null; }
function highlight11(el) { el.classList.toggle('hl-11'); return el.dataset.sku || null; }
function highlight12(el) { el.classList.toggle('hl-12'); return el.dataset.sku || null; }
function highlight13(el) { el.classList.toggle('hl-13'); return el.dataset.sku || null; }
function highlight14(el) { el.classList.toggle('hl-14'); return el.dataset.sku || null; }
function highlight15(el) { el.classList.toggle('hl-15'); return el.dataset.sku || null; }
function highlight16(el) { el.classList.toggle('hl-16'); return el.dataset.sku || null; }
function highlight17(el) { el.classList.toggle('hl-17'); return el.dataset.sku || null; }
function highlight18(el) { el.classList.toggle('hl-18'); return el.dataset.sku || null; }
function highlight19(el) { el.classList.toggle('hl-19'); return el.dataset.sku || null; }
function highlight20(el) { el.classList.toggle('hl-20'); return el.dataset.sku || null; }
function highlight21(el) { el.classList.toggle('hl-21'); return el.dataset.sku || null; }
function highlight22(el) { el.classList.toggle('hl-22'); return el.dataset.sku || null; }
function highlight23(el) { el.classList.toggle('hl-23'); return el.dataset.sku || null; }
function highlight24(el) { el.classList.toggle('hl-24'); return el.dataset.sku || null; }
function highlight25(el) { el.classList.toggle('hl-25'); return el.dataset.sku || null; }
function highlight26(el) { el.classList.toggle('hl-26'); return el.dataset.sku || null; }
function highlight27(el) { el.classList.toggle('hl-27'); return el.dataset.sku || null; }
function highlight28(el) { el.classList.toggle('hl-28'); return el.dataset.sku || null; }
function highlight29(el) { el.classList.toggle('hl-29'); return el.dataset.sku || null; }
document.addEventListener('DOMContentLoaded', () => highlight1(document.body));
