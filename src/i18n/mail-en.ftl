# The mails in English (src/mail): the frame, the table in prose, the moves
# and their legend, dates. Every message is also in mail-fr.ftl.
