# Les mails en français (src/mail) : le cadre, la table en prose, les coups
# et leur légende, les dates. Chaque message est aussi dans mail-en.ftl.
