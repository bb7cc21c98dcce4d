"""French, German, Spanish and Chinese first-person patterns: name, home, job and employer, email, likes and
dislikes (and diet in French). Facts are written in the third person of their language ("L'utilisateur habite à
Lyon.", "Der Nutzer wohnt in Berlin.", "El usuario se llama Ana.", "用户喜欢小猫。"), with the same slots as the
English rules, so a change said in any of these languages supersedes the fact it changes."""

from __future__ import annotations

import re

from memory_pipeline.extractors.offline.rules import (
    EMAIL, NAME, VALUE, is_person_name, is_place, is_proper_name, rule, value_before)

_NAME_ONLY = NAME.replace("(?P<v>", "(?P<v>(?-i:") + ")"


def _opinion(match: re.Match[str], value: str) -> str:
    return "opinion:" + value.casefold()


def _stance(verbs: dict[str, str]):
    def stance(match: re.Match[str], value: str) -> str:
        verb = " ".join(match.group("verb").casefold().split())
        return verbs.get(verb, "likes")
    return stance


_FR_PERSON = [(re.compile(r"\b" + a + r"\b", re.IGNORECASE), b) for a, b in (
    ("mon", "son"), ("ma", "sa"), ("mes", "ses"), ("me", "le"), ("moi", "lui"))] + [
    (re.compile(r"\bm'", re.IGNORECASE), "l'")]
_DE_PERSON = [(re.compile(r"\b" + a + r"\b", re.IGNORECASE), b) for a, b in (
    ("mein", "sein"), ("meine", "seine"), ("meinen", "seinen"), ("meinem", "seinem"), ("mich", "sich"),
    ("mir", "sich"))]
_ES_PERSON = [(re.compile(r"\b" + a + r"\b", re.IGNORECASE), b) for a, b in (("mi", "su"), ("mis", "sus"))]


def _person(pairs):
    def convert(text: str) -> str:
        for pattern, replacement in pairs:
            text = pattern.sub(replacement, text)
        return text
    return convert


# The user's gender, where the value shows it ("je suis végétarienne", "ich bin Lehrerin", "soy enfermera"): the
# subject agrees with it, so the fact reads as said ("L'utilisatrice est végétarienne.").
def _fr_subject(value: str) -> str:
    feminine = re.search(r"(?:enne|ère|euse|trice|ée|ante|ente|ine|aise|ure|ate|ane)$", value.casefold())
    return "L'utilisatrice" if feminine else "L'utilisateur"


def _de_subject(value: str) -> str:
    return "Die Nutzerin" if re.search(r"(?:in|ärztin)$", value.split()[0].casefold()) else "Der Nutzer"


def _es_subject(value: str) -> str:
    word = value.split()[0].casefold()
    return "La usuaria" if word.endswith("a") and not word.endswith("ista") else "El usuario"


_FR = {"person": _person(_FR_PERSON)}
_DE = {"person": _person(_DE_PERSON)}
_ES = {"person": _person(_ES_PERSON)}
_FR_VERBS = {"aime": "likes", "aime bien": "likes", "aime beaucoup": "likes", "adore": "loves",
             "déteste": "hates", "deteste": "hates", "n'aime pas": "does not like"}
_DE_VERBS = {"mag": "likes", "liebe": "loves", "hasse": "hates"}
_ES_VERBS = {"me gusta": "likes", "me gustan": "likes", "me encanta": "loves", "me encantan": "loves",
             "odio": "hates", "no me gusta": "does not like", "no me gustan": "does not like"}
_FR_JOBS = (r"ingénieure?|développeur|développeuse|professeure?|enseignante?|infirmière?|infirmier|médecin|"
            r"étudiante?|avocate?|comptable|designer|architecte|journaliste|chercheuse|chercheur|graphiste|"
            r"photographe|cuisinière?|cuisinier|consultante?|vendeuse|vendeur|retraitée?")
_DE_JOBS = (r"Ingenieur(?:in)?|Entwickler(?:in)?|Softwareentwickler(?:in)?|Lehrer(?:in)?|Krankenpfleger(?:in)?|"
            r"Arzt|Ärztin|Student(?:in)?|Anwalt|Anwältin|Designer(?:in)?|Architekt(?:in)?|Journalist(?:in)?|"
            r"Fotograf(?:in)?|Koch|Köchin|Berater(?:in)?|Rentner(?:in)?|Programmierer(?:in)?")
_ES_JOBS = (r"ingenier[oa]|desarrollador(?:a)?|profesor(?:a)?|maestr[oa]|enfermer[oa]|médic[oa]|estudiante|"
            r"abogad[oa]|contador(?:a)?|diseñador(?:a)?|arquitect[oa]|periodista|fotógraf[oa]|cociner[oa]|"
            r"consultor(?:a)?|programador(?:a)?|jubilad[oa]")

RULES = (
    # French
    rule(r"je m'appelle " + _NAME_ONLY, "client_info", "name", "L'utilisateur s'appelle {v}.", accepts=is_person_name),
    rule(r"mon (?:nom|prénom) est " + _NAME_ONLY, "client_info", "name", "L'utilisateur s'appelle {v}.",
         accepts=is_person_name),
    rule(r"(?:j'habite|je vis|je réside) (?P<prep>à|a|en|au|aux) " + VALUE, "client_info", "home_location",
         "L'utilisateur habite {prep} {v}.", accepts=is_place),
    rule(r"je travaille comme (?P<v>" + _FR_JOBS + r"(?: [\w-]+){0,3}?)(?=\s*[,.;!?]|\s+(?:chez|à|dans)\b|$)",
         "client_info", "job", "{subject} travaille comme {v}.", more=True, subject=_fr_subject),
    rule(r"je suis (?P<art>une? )?(?P<v>" + _FR_JOBS + r")\b", "client_info", "job", "{subject} est {art}{v}.",
         subject=_fr_subject),
    rule(r"je travaille (?:chez|à|dans) [^,.;!?]+? (?:comme|en tant que) (?P<v>" + _FR_JOBS + r"(?: [\w-]+){0,3}?)"
         r"(?=\s*[,.;!?]|$)", "client_info", "job", "{subject} travaille comme {v}.", more=True, subject=_fr_subject),
    rule(r"je travaille (?:comme [^,.;!?]+? )?chez " + value_before("comme|en tant que"), "client_info", "employer",
         "L'utilisateur travaille chez {v}.", accepts=is_proper_name),
    rule(r"mon (?:adresse )?(?:e-?mail|courriel|mail)(?: est|:)\s*" + EMAIL, "client_info", "email",
         "L'adresse e-mail de l'utilisateur est {v}."),
    rule(r"mon adresse (?:e-?mail|électronique|mail) est " + EMAIL, "client_info", "email",
         "L'adresse e-mail de l'utilisateur est {v}."),
    rule(r"je suis (?P<v>végétarien(?:ne)?|vegan|végane|végétalien(?:ne)?)", "preference", "diet",
         "{subject} est {v}.", value=lambda m, v: v.casefold(), subject=_fr_subject),
    rule(r"je (?:préfère|prefere) " + VALUE, "preference", None, "L'utilisateur préfère {v}.", **_FR),
    rule(r"je (?P<verb>n'aime pas|déteste|deteste) " + VALUE, "preference", _opinion, "L'utilisateur {verb} {v}.",
         value=_stance(_FR_VERBS), verbs={"n'aime pas": "n'aime pas", "deteste": "déteste"}, **_FR),
    rule(r"j'(?P<verb>adore|aime(?: bien| beaucoup)?) " + VALUE, "preference", _opinion, "L'utilisateur {verb} {v}.",
         value=_stance(_FR_VERBS), **_FR),
    rule(r"(?:j'ai|nous avons|on a) décidé (?P<conj>que |qu'|de |d')" + VALUE, "decision", None,
         "L'utilisateur a décidé {conj}{v}.", **_FR),
    # German
    rule(r"ich heiße " + _NAME_ONLY, "client_info", "name", "Der Nutzer heißt {v}.", accepts=is_person_name),
    rule(r"mein name ist " + _NAME_ONLY, "client_info", "name", "Der Nutzer heißt {v}.", accepts=is_person_name),
    rule(r"ich (?:wohne|lebe) (?P<prep>in|im) " + VALUE, "client_info", "home_location", "Der Nutzer wohnt {prep} {v}.",
         accepts=is_place),
    rule(r"ich arbeite als (?P<v>" + _DE_JOBS + r"(?: [\w-]+){0,2}?)(?=\s*[,.;!?]|\s+(?:bei|in|für)\b|$)",
         "client_info", "job", "{subject} arbeitet als {v}.", more=True, subject=_de_subject),
    rule(r"ich bin (?P<v>" + _DE_JOBS + r")\b", "client_info", "job", "{subject} ist {v}.", subject=_de_subject),
    rule(r"ich arbeite (?:bei|in|für) [^,.;!?]+? als (?P<v>" + _DE_JOBS + r"(?: [\w-]+){0,2}?)(?=\s*[,.;!?]|$)",
         "client_info", "job", "{subject} arbeitet als {v}.", more=True, subject=_de_subject),
    rule(r"ich arbeite (?:als [^,.;!?]+? )?bei " + value_before("als"), "client_info", "employer",
         "Der Nutzer arbeitet bei {v}.",
         accepts=is_proper_name),
    rule(r"meine (?:e-?mail(?:-adresse)?|mailadresse|e-?mail adresse) (?:ist|lautet) " + EMAIL, "client_info",
         "email", "Die E-Mail-Adresse des Nutzers ist {v}."),
    rule(r"ich mag (?P<neg>kein(?:e|en)?) (?P<v>[^,.;!?]{2,80}?)(?=\s*[,.;!?]|$)", "preference", _opinion,
         "Der Nutzer mag {neg} {v}.", value=lambda m, v: "does not like", **_DE),
    rule(r"ich mag (?P<v>[^,.;!?]{2,80}?) nicht(?=\s*[,.;!?]|$)", "preference", _opinion,
         "Der Nutzer mag {v} nicht.", value=lambda m, v: "does not like", **_DE),
    rule(r"ich (?P<verb>mag|liebe|hasse) (?P<v>[^,.;!?]{2,80}?)(?<!\snicht)(?=\s*[,.;!?]|$)", "preference", _opinion,
         "Der Nutzer {verb} {v}.", value=_stance(_DE_VERBS), verbs={"mag": "mag", "liebe": "liebt", "hasse": "hasst"},
         **_DE),
    rule(r"(?:ich habe|wir haben) (?:beschlossen|entschieden),? (?P<conj>dass )?" + VALUE, "decision", None,
         "Der Nutzer hat beschlossen, {conj}{v}.", **_DE),
    # Spanish
    rule(r"me llamo " + _NAME_ONLY, "client_info", "name", "El usuario se llama {v}.", accepts=is_person_name),
    rule(r"mi nombre es " + _NAME_ONLY, "client_info", "name", "El usuario se llama {v}.", accepts=is_person_name),
    rule(r"vivo en " + VALUE, "client_info", "home_location", "El usuario vive en {v}.", accepts=is_place),
    rule(r"trabajo (?:como|de) (?P<v>" + _ES_JOBS + r"(?: [\w-]+){0,2}?)(?=\s*[,.;!?]|\s+(?:en|para)\b|$)",
         "client_info", "job", "{subject} trabaja como {v}.", more=True, subject=_es_subject),
    rule(r"soy (?P<v>" + _ES_JOBS + r")\b", "client_info", "job", "{subject} es {v}.", subject=_es_subject),
    rule(r"trabajo (?:en|para) [^,.;!?]+? (?:como|de) (?P<v>" + _ES_JOBS + r"(?: [\w-]+){0,2}?)(?=\s*[,.;!?]|$)",
         "client_info", "job", "{subject} trabaja como {v}.", more=True, subject=_es_subject),
    rule(r"trabajo (?:como [^,.;!?]+? )?(?:en|para) " + value_before("como|de"), "client_info", "employer",
         "El usuario trabaja en {v}.",
         accepts=is_proper_name),
    rule(r"mi (?:correo(?: electrónico)?|e-?mail|email) es " + EMAIL, "client_info", "email",
         "El correo electrónico del usuario es {v}."),
    rule(r"(?P<verb>no me gustan?|me gustan?|me encantan?) " + VALUE, "preference", _opinion,
         "Al usuario {verb} {v}.", value=_stance(_ES_VERBS), verbs={
             "me gusta": "le gusta", "me gustan": "le gustan", "me encanta": "le encanta", "me encantan": "le encantan",
             "no me gusta": "no le gusta", "no me gustan": "no le gustan"}, **_ES),
    rule(r"odio " + VALUE, "preference", _opinion, "El usuario odia {v}.", value=lambda m, v: "hates", **_ES),
    rule(r"(?:decidí|decidimos|hemos decidido|he decidido) (?P<conj>que |)" + VALUE, "decision", None,
         "El usuario decidió {conj}{v}.", **_ES),
    # Chinese: the subject 我 may be dropped after a comma ("我现在更喜欢小猫，不太喜欢小狗了")
    rule(r"我叫(?P<v>[^，。！？,.!?\s]{1,20})", "client_info", "name", "用户叫{v}。"),
    rule(r"我的名字(?:是|叫)(?P<v>[^，。！？,.!?\s]{1,20})", "client_info", "name", "用户叫{v}。"),
    rule(r"我(?:现在)?住在(?P<v>[^，。！？,.!?]{1,40})", "client_info", "home_location", "用户住在{v}。"),
    rule(r"我(?:现在)?在(?P<v>[^，。！？,.!?]{1,30}?)(?:工作|上班)", "client_info", "employer", "用户在{v}工作。"),
    rule(r"我(?:现在)?是(?:一名|一个|一位)?(?P<v>[^，。！？,.!?]{0,10}(?:工程师|老师|教师|医生|护士|学生|设计师|程序员|"
         r"律师|会计|经理|记者|摄影师|厨师|研究员))", "client_info", "job", "用户是{v}。"),
    rule(r"我的(?:邮箱|电子邮件|电子邮箱|email|e-mail)(?:地址)?是\s*(?P<v>[^\s@，。]+@[^\s，。]+?\.[A-Za-z]{2,})",
         "client_info", "email", "用户的邮箱是{v}。"),
    rule(r"(?P<subject>我)?(?P<adv>(?:现在|也|还|一直|其实)?(?:更|很|非常|特别|真的|最|比较)?)"
         r"(?P<verb>不太喜欢|不怎么喜欢|不喜欢|喜欢|爱|讨厌)(?P<v>[^，。！？,.!?了]{1,40})了?", "preference", _opinion,
         "用户{adv}{verb}{v}。",
         value=_stance({"喜欢": "likes", "爱": "loves", "讨厌": "hates", "不喜欢": "does not like",
                        "不太喜欢": "does not like", "不怎么喜欢": "does not like"})),
)
