/**
 * Natural prose in languages written with accented Latin and Cyrillic letters, and a chat with
 * emoji, written for the estimator benchmark. It exercises the estimator's rules for non-ASCII
 * text that is neither CJK nor plain English.
 */
export const OTHER_SCRIPTS_PROSE = `Le canal au petit matin

Bien avant l'arrivée du chemin de fer dans la vallée, le canal était le moyen le plus rapide de transporter tout ce qui pesait plus lourd qu'une lettre. Le charbon descendait des collines dans des bateaux étroits tirés par des chevaux, et le grain remontait dans les mêmes bateaux, que les enfants des mariniers récuraient entre deux chargements. Les écluses elles-mêmes étaient une merveille d'ingénierie patiente : chaque sas avait été construit en grès local, taillé à la main et posé sans mortier sous la ligne d'eau.

Quand le chemin de fer est enfin arrivé, la compagnie du canal a réduit ses péages de moitié, puis encore de moitié. Cela n'a pas suffi. En moins de dix ans, les bateaux ne transportaient plus que ce que les trains refusaient : du fumier, des pierres concassées et, de temps à autre, un chargement de bois trop long pour un wagon.

Über das Brotbacken

Die meisten Menschen, die zu Hause Brot backen, machen am Anfang denselben Fehler: Sie haben es eilig. Hefe ist ein Lebewesen und arbeitet in ihrem eigenen Tempo, das viel stärker von der Temperatur in der Küche abhängt als vom Rezept. Ein Teig, der an einem warmen Julinachmittag in einer Stunde sein Volumen verdoppelt, braucht an einem kalten Februarmorgen vielleicht drei Stunden. Die Zeitangaben im Rezept sind eine Orientierung, kein Versprechen.

Beginnen Sie mit gutem Mehl. Vermischen Sie fünfhundert Gramm Mehl mit zehn Gramm Salz und sieben Gramm Trockenhefe, und halten Sie Salz und Hefe getrennt, bis Sie das Wasser hinzufügen, weil Salz die Hefe bei direktem Kontakt bremsen kann. Danach wird geknetet: acht bis zehn Minuten lang, bis sich der Teig glatt und elastisch anfühlt.

La hija del farero

Mara había vivido en la isla durante once años, que eran todos los años que podía recordar. Conocía el número de escalones de la torre (ciento doce), el nombre de cada ave marina que anidaba en los acantilados del oeste y el sonido exacto que hacía la sirena de niebla cuando su lengüeta estaba rota. Lo que no sabía, hasta el otoño en que cumplió doce años, era que su padre le tenía miedo a la oscuridad.

—Iré yo —dijo Mara.

Él la miró durante un largo rato, como si estuviera viendo a alguien a quien no conocía. Después le entregó la linterna. «Cuenta los escalones», le dijo. «Si cuentas, siempre sabes dónde estás».

Почему совещания затягиваются

Любой, кто проработал в офисе больше нескольких недель, сидел на совещании, которое вполне могло быть письмом. Легко обвинить участников, но причины обычно кроются в самой структуре. Совещания затягиваются потому, что никто не следит за временем, потому что повестка состоит из тем, а не из решений, и потому что цена лишних десяти минут распределяется между всеми так тонко, что никто её не замечает.

Самый простой способ исправить это — перед началом встречи записать, какое решение она должна принять. Если решения нет, то и совещание, скорее всего, не нужно: общий документ или короткая запись справятся лучше. Если решение есть, повестка должна вести к нему, а ведущий должен быть готов закончить обсуждение, как только все высказались, даже если согласны не все.

Ремонтная мастерская

На углу Мельничной улицы есть маленькая мастерская, где чинят почти всё. Над дверью висит вывеска «Ремонт», а витрина заставлена часами, радиоприёмниками, швейными машинками и деревянной лошадкой без одного уха. «Большинство вещей не сломаны, — говорит хозяин. — Они просто устали».

Chat du vendredi 🎉

Salut tout le monde 👋 ! Le déploiement de ce soir est reporté à lundi 😅 — la migration de la base prend plus de temps que prévu. Merci à Zoë et à Jürgen pour leur aide 🙏🙏. On se retrouve à 10 h pour le point hebdo ☕️. Bon week-end à tous 🌞🚲🏔️ !

Kurzes Update: Die Tests laufen wieder grün ✅, nur der Export nach Excel schlägt noch fehl ❌. Ich kümmere mich morgen früh darum 💪.

¡Hola equipo! 🚀 Ya está lista la nueva versión de la aplicación móvil. Probadla y contadme qué tal 📱✨. Si encontráis algún error, abrid una incidencia con capturas de pantalla, por favor 🙂.
`;
